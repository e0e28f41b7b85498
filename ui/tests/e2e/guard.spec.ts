// No page goes blank: lists whose keys repeat still render, a part that throws shows its failed
// card (in the UI language, with the ways out, logged) while the rest keeps working, and Settings
// shows its frame at once while its code and its slow backend calls are on their way.
import type { Page } from '@playwright/test';
import type { DetectedServer } from '../../src/lib/bindings/DetectedServer';
import type { Settings } from '../../src/lib/bindings/Settings';
import { boot, callsTo, expect, provider, test, withProvider } from './fixtures';

const lmStudio: DetectedServer = {
  name: 'LM Studio',
  id: 'lm-studio',
  kind: 'openai',
  address: '127.0.0.1:1234',
  base_url: 'http://127.0.0.1:1234/v1',
  models: ['mock'],
};

const general = (page: Page) => page.locator('section[aria-labelledby="general-title"]');

test('two providers with the same default model: Settings opens again and works', async ({ page }) => {
  // The steps: "Use LM Studio" on the first-run card, then a second provider on the same
  // server with the same model, saved; Settings left and opened again.
  await boot(page, { localServers: [lmStudio], models: ['mock'] });
  await page.getByRole('button', { name: 'Use LM Studio' }).click();
  await page.getByRole('button', { name: /Settings/ }).click();
  await page.getByRole('button', { name: 'Add provider' }).click();
  const form = page.locator('form.provider-form');
  await form.locator('input[name="name"]').fill('LM Studio again');
  await form.locator('input[name="base_url"]').fill(lmStudio.base_url);
  await form.locator('input[name="new_api_key"]').fill('sk-any-1');
  await form.getByRole('button', { name: 'Test connection' }).click();
  await form.getByRole('button', { name: 'mock' }).click();
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect
    .poll(async () => ((await callsTo(page, 'save_settings')).at(-1)?.args.settings as Settings).providers.map((p) => p.default_model))
    .toEqual(['mock', 'mock']);

  await page.getByRole('button', { name: 'Back to chats' }).first().click();
  await page.getByRole('button', { name: /Settings/ }).click();
  await expect(general(page).getByRole('heading', { name: 'General' })).toBeVisible();
  await expect(page.locator('[data-provider-id]')).toHaveCount(2);
  await expect(page.locator('#default-models option')).toHaveCount(1);
  await expect(page.locator('[data-failed]')).toHaveCount(0);
  await page.locator('select[name="language"]').selectOption('zh-CN');
  await expect(page.getByRole('heading', { name: '通用' })).toBeVisible();
});

test('providers repeating an id in config.toml are all listed', async ({ page }) => {
  await boot(page, { settings: { ...withProvider, providers: [provider, { ...provider, name: 'Local copy' }] } });
  await page.getByRole('button', { name: /Settings/ }).click();
  await expect(page.locator('[data-provider-id="local"]')).toHaveCount(2);
  await expect(page.locator('select[name="default_provider"] option')).toHaveCount(3);
});

test('a Settings section that throws shows its failed card; the others still work', async ({ page, problems }) => {
  problems.allow(/Hearth: “.*” failed/);
  // A backend whose settings lack a section the UI expects (an older or newer Hearth).
  await boot(page, { settings: { ...withProvider, media: null as unknown as Settings['media'] } });
  await page.getByRole('button', { name: /Settings/ }).click();
  const card = page.locator('[data-failed="Media"]');
  await expect(card.getByRole('heading')).toHaveText('“Media” could not be shown');
  await card.getByText('What failed').click();
  await expect(card.locator('pre')).toContainText('TypeError');
  for (const name of ['Back to chats', 'Open config folder', 'Reload']) await expect(card.getByRole('button', { name })).toBeVisible();
  const logged = await callsTo(page, 'log_ui_error');
  expect(logged).toHaveLength(1);
  expect(logged[0].args.what).toBe('Media');
  expect(String(logged[0].args.error)).toMatch(/^TypeError: .*\n\s+at /);

  await card.getByRole('button', { name: 'Open config folder' }).click();
  await expect.poll(async () => (await callsTo(page, 'open_data_folder')).length).toBe(1);

  // The rest of Settings is there and works, in the chosen language, the card too.
  await expect(page.getByRole('heading', { name: 'Network', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'About' })).toBeVisible();
  await page.locator('select[name="language"]').selectOption('zh-CN');
  await expect(page.getByRole('heading', { name: '通用' })).toBeVisible();
  const zhCard = page.locator('[data-failed="媒体"]');
  await expect(zhCard.getByRole('heading')).toHaveText('无法显示“媒体”');
  await expect(zhCard.getByRole('button', { name: '打开配置文件夹' })).toBeVisible();

  await zhCard.getByRole('button', { name: '返回对话' }).click();
  await expect(page.getByRole('heading', { name: '还没有对话' })).toBeVisible();
});

test('a page that throws shows its failed card, and the other pages still open', async ({ page, problems }) => {
  problems.allow(/Hearth: “.*” failed/);
  await boot(page, { settings: { ...withProvider, knowledge: null as unknown as Settings['knowledge'] } });
  await page.getByRole('button', { name: 'Knowledge' }).click();
  await expect(page.locator('[data-failed="Knowledge"]').getByRole('heading')).toHaveText('“Knowledge” could not be shown');
  await page.getByRole('button', { name: 'Jobs' }).click();
  await expect(page.getByRole('heading', { name: 'Scheduled jobs' })).toBeVisible();
  await expect(page.locator('[data-failed]')).toHaveCount(0);
});

test('Settings shows its frame while its code loads, then fills in', async ({ page }) => {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/SettingsPage-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await boot(page, { settings: withProvider });
  await page.getByRole('button', { name: /Settings/ }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(page.locator('main [aria-busy="true"]')).toHaveText('Loading…');
  await expect(page.getByRole('button', { name: 'Back to chats' })).toBeVisible();
  release();
  await expect(general(page).getByRole('heading', { name: 'General' })).toBeVisible();
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
});

test('slow keychain and server lookups never hold Settings back: sections fill in as answers arrive', async ({ page }) => {
  const slow = ['get_key_status', 'channel_token_status', 'channel_statuses', 'browser_status', 'mcp_servers', 'list_audit', 'about'];
  await boot(page, { settings: withProvider, keys: { local: 'sk-stored-abcd' }, audit: [] }, { hold: slow });
  await page.getByRole('button', { name: /Settings/ }).click();
  await page.locator('[data-provider-id="local"]').getByRole('button', { name: 'Edit' }).click();
  // Everything the page shows without those answers is there and usable at once.
  await expect(general(page).getByRole('heading', { name: 'General' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'About' })).toBeVisible();
  const key = page.locator('section[aria-labelledby="providers-title"] .key-status');
  await expect(key).toHaveText('Checking the keychain…');
  await expect(page.locator('section[aria-labelledby="audit-title"] [aria-busy="true"]')).toHaveText('Loading…');
  await page.locator('select[name="theme"]').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

  await page.evaluate(() => (window as unknown as { __hearth: { release(): void } }).__hearth.release());
  await expect(key).toHaveText('Stored key: ••••abcd');
  await expect(page.getByText('No tool decisions recorded yet.')).toBeVisible();
});
