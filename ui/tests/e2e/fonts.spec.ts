// The document's language follows the chosen one, and English text is drawn with a Latin font
// (never with Noto Sans CJK's full-width punctuation) while Chinese text gets the CJK font — on
// this machine's real fonts (the setup installs fonts-noto-cjk and DejaVu, no Latin Noto Sans).
import type { Page } from '@playwright/test';
import { boot, expect, test, withProvider } from './fixtures';

/** The fonts Chromium really drew the text of the first element matching `selector` with. */
async function fontsDrawing(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument');
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  return fonts.map((f) => f.familyName);
}

const isCjk = (family: string) => /CJK|PingFang|Hiragino|YaHei|Source Han|WenQuanYi|Droid Sans Fallback/i.test(family);

test('English text is drawn with a Latin font, Chinese text with the CJK one, and lang follows the language', async ({ page }) => {
  await boot(page, {});
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  // The first-run card's text (its last paragraph) has curly quotes: “Add provider”, “Test connection”.
  const body = '[data-empty="no-provider"] > p:last-of-type';
  await expect(page.locator(body).first()).toContainText('“Add provider”');
  const english = await fontsDrawing(page, body);
  expect(english.length).toBeGreaterThan(0);
  expect(english.filter(isCjk), `fonts drawing English: ${english.join(', ')}`).toEqual([]);

  // The stack itself: every Latin family before the first CJK one.
  const stack = await page.evaluate(() => getComputedStyle(document.body).fontFamily.split(',').map((f) => f.trim().replace(/^["']|["']$/g, '')));
  const firstCjk = stack.findIndex(isCjk);
  expect(firstCjk, stack.join(', ')).toBeGreaterThan(0);
  expect(stack.slice(firstCjk).filter((f) => !isCjk(f) && f !== 'sans-serif'), stack.join(', ')).toEqual([]);

  await page.getByRole('button', { name: 'Open Settings → Add provider' }).click();
  await page.locator('select[name="language"]').selectOption('zh-CN');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('heading', { name: '设置', exact: true })).toBeVisible();
  const chinese = await fontsDrawing(page, '.settings h1');
  expect(chinese.some(isCjk), `fonts drawing Chinese: ${chinese.join(', ')}`).toBe(true);

  await page.locator('select[name="language"]').selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('on Linux the stack names only fonts a Linux desktop has', async ({ page }) => {
  // Each family a system lacks costs WebKitGTK a fontconfig match per size and weight drawn.
  await boot(page, {});
  await expect(page.locator('html')).toHaveAttribute('data-os', 'linux');
  const stack = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  for (const elsewhere of ['-apple-system', 'BlinkMacSystemFont', 'Segoe UI', 'Roboto', 'Arial', 'PingFang', 'Hiragino', 'YaHei']) {
    expect(stack, stack).not.toContain(elsewhere);
  }
  const mono = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--mono'));
  for (const elsewhere of ['ui-monospace', 'SFMono', 'Menlo', 'Consolas']) expect(mono, mono).not.toContain(elsewhere);
});

test('a saved Chinese language sets lang before anything is shown', async ({ page }) => {
  await boot(page, { settings: { ...withProvider, language: 'zh-CN' } });
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('heading', { name: '还没有对话' })).toBeVisible();
  const chinese = await fontsDrawing(page, '[data-empty="no-sessions"] h1');
  expect(chinese.some(isCjk), chinese.join(', ')).toBe(true);
});
