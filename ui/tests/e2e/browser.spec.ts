// The browser tool in the desktop: its card shows the action, the page and the screenshot
// thumbnail with the outline folded; Settings → Browser shows the program found (or what to
// install), saves headless/visible, the idle timeout and the CDP address, opens the agent's
// browser and clears its data.
import { boot, callsTo, expect, test, withProvider } from './fixtures';

// A 1×1 red PNG, as the browser's screenshot attaches it.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVQI12P4z8AAAAMBAQAY3Y2wAAAAAElFTkSuQmCC';
const OUTLINE = '- Page URL: http://127.0.0.1:8000/form\n- Page Title: Sign up\n- textbox "Name" [ref=e1]\n- button "Save" [ref=e2]';

test('a browser card shows the action, the page, the screenshot thumbnail and the folded outline', async ({ page }) => {
  await boot(page, {
    settings: withProvider,
    script: [
      {
        tool: {
          name: 'browser',
          arguments: JSON.stringify({ action: 'open', url: 'http://127.0.0.1:8000/form' }),
          result: JSON.stringify({ url: 'http://127.0.0.1:8000/form', title: 'Sign up', refs: 2, snapshot: OUTLINE }),
          views: [{ kind: 'browser_page', action: 'open', url: 'http://127.0.0.1:8000/form', title: 'Sign up', snapshot: OUTLINE }],
        },
      },
      {
        tool: {
          name: 'browser',
          arguments: JSON.stringify({ action: 'screenshot' }),
          result: JSON.stringify({ action: 'screenshot', width: 1, height: 1, bytes: 68, path: null, note: 'a 1×1 PNG' }),
          images: [{ type: 'image', mime_type: 'image/png', data: PNG, name: 'screenshot.png' }],
          views: [{ kind: 'browser_page', action: 'screenshot', url: null, title: null, snapshot: null }],
        },
      },
      { text: 'The form is open.' },
    ],
  });
  await page.getByRole('button', { name: /New chat|新对话/ }).first().click();
  const input = page.getByRole('textbox').last();
  await input.fill('open the form');
  await input.press('Enter');
  await expect(page.getByText('The form is open.')).toBeVisible();
  const cards = page.locator('.tool-card[data-tool="browser"]');
  const opened = cards.nth(0);
  await expect(opened.locator('.browser-view')).toHaveAttribute('data-action', 'open');
  await expect(opened.getByText('Browser: open')).toBeVisible();
  await expect(opened.locator('.browser-title')).toHaveText('Sign up');
  await expect(opened.locator('.browser-url')).toHaveText('http://127.0.0.1:8000/form');
  const outline = opened.locator('details.browser-snapshot');
  await expect(outline.locator('summary')).toHaveText(`Page outline (${OUTLINE.length} characters)`);
  await expect(outline.locator('pre')).toBeHidden();
  await outline.locator('summary').click();
  await expect(outline.locator('pre')).toHaveText(OUTLINE);

  const shot = cards.nth(1);
  await expect(shot.getByText('Browser: screenshot')).toBeVisible();
  const thumb = shot.getByRole('button', { name: 'Open screenshot.png full size' });
  await expect(thumb.locator('img')).toHaveAttribute('src', `data:image/png;base64,${PNG}`);
  await thumb.click();
  await expect(page.getByRole('dialog', { name: 'screenshot.png' }).locator('img.full')).toBeVisible();
});

test('Settings → Browser saves its settings, opens the agent’s browser and clears its data', async ({ page }) => {
  await boot(page, { settings: withProvider });
  await page.getByRole('button', { name: /Settings/ }).click();
  const section = page.locator('section[aria-labelledby="browser-title"]');
  await expect(section.locator('[data-browser="found"]')).toHaveText('Browser: /usr/bin/chromium (installed)');
  await expect(section.locator('[data-browser="state"]')).toContainText('Not running');

  await section.locator('input[name="browser_visible"]').check();
  await expect.poll(async () => (await callsTo(page, 'save_settings')).at(-1)?.args.settings).toMatchObject({ browser: { visible: true } });
  await section.locator('input[name="browser_idle_minutes"]').fill('25');
  await section.locator('input[name="browser_idle_minutes"]').press('Tab');
  await expect.poll(async () => (await callsTo(page, 'save_settings')).at(-1)?.args.settings).toMatchObject({ browser: { idle_minutes: 25 } });
  await section.locator('input[name="browser_idle_minutes"]').fill('0');
  await section.locator('input[name="browser_idle_minutes"]').press('Tab');
  await expect(section.locator('input[name="browser_idle_minutes"]')).toHaveValue('25');
  await section.locator('input[name="browser_cdp_url"]').fill('http://127.0.0.1:9222');
  await section.locator('input[name="browser_cdp_url"]').press('Tab');
  await expect
    .poll(async () => (await callsTo(page, 'save_settings')).at(-1)?.args.settings)
    .toMatchObject({ browser: { cdp_url: 'http://127.0.0.1:9222', visible: true, idle_minutes: 25 } });
  await expect(section).toContainText('does NOT go through the egress guard');

  await section.getByRole('button', { name: 'Open the agent’s browser' }).click();
  await expect(section.locator('[data-browser="message"]')).toHaveText('The agent’s browser is open.');
  await expect(section.locator('[data-browser="state"]')).toHaveText('Running now');
  expect(await callsTo(page, 'open_agent_browser')).toHaveLength(1);

  page.once('dialog', (dialog) => void dialog.dismiss());
  await section.getByRole('button', { name: 'Clear browser data' }).click();
  expect(await callsTo(page, 'clear_browser_data')).toHaveLength(0);
  page.once('dialog', (dialog) => void dialog.accept());
  await section.getByRole('button', { name: 'Clear browser data' }).click();
  await expect(section.locator('[data-browser="message"]')).toHaveText('Browser data cleared.');
  await expect(section.locator('[data-browser="state"]')).toContainText('Not running');
  expect(await callsTo(page, 'clear_browser_data')).toHaveLength(1);
});

test('Settings → Browser says what to install when no browser is found, in 简体中文 too', async ({ page }) => {
  await boot(page, { settings: { ...withProvider, language: 'zh-CN' }, browserExecutable: null });
  await page.getByRole('button', { name: /设置/ }).click();
  const section = page.locator('section[aria-labelledby="browser-title"]');
  await expect(section.getByRole('heading', { name: '浏览器' })).toBeVisible();
  await expect(section.locator('[data-browser="missing"]')).toContainText('sudo apt install chromium');
  await expect(section.getByRole('button', { name: '打开智能体的浏览器' })).toBeDisabled();
});

test('a browser card shows its action and the page asked for while the call waits to run', async ({ page }) => {
  const url = 'http://127.0.0.1:8000/pay';
  await boot(page, {
    settings: withProvider,
    script: [
      {
        tool: {
          name: 'browser',
          arguments: JSON.stringify({ action: 'open', url }),
          result: JSON.stringify({ url, title: 'Pay', refs: 0, snapshot: '- Page Title: Pay' }),
          runningViews: [{ kind: 'browser_page', action: 'open', url, title: null, snapshot: null }],
          views: [{ kind: 'browser_page', action: 'open', url, title: 'Pay', snapshot: '- Page Title: Pay' }],
          approval: 'browser opens pages',
        },
      },
      { text: 'Opened.' },
    ],
  });
  await page.getByRole('button', { name: /New chat|新对话/ }).first().click();
  const input = page.getByRole('textbox').last();
  await input.fill('open the payment page');
  await input.press('Enter');
  const card = page.locator('.tool-card[data-tool="browser"]');
  await expect(card).toHaveAttribute('data-status', 'awaiting_approval');
  await expect(card.locator('.browser-view')).toHaveAttribute('data-action', 'open');
  await expect(card.locator('.browser-url')).toHaveText(url);
  await expect(card.locator('.browser-title')).toHaveCount(0);
  await card.getByRole('button', { name: 'Allow once', exact: true }).click();
  await expect(card.locator('.browser-title')).toHaveText('Pay');
});
