// A reply streamed in small paced deltas: finished blocks keep their DOM while the last one grows,
// code is plain while its fence is open and gets highlighting and a copy button once closed, and
// the streamed result is exactly what the stored message renders when the chat is opened again; a fence typed a character at a time never shows a lone backtick.
import { boot, expect, test, withProvider } from './fixtures';

const reply = [
  'The first paragraph is finished early and must keep its element.',
  '',
  '- a list item with **bold**',
  '- ',
  '- an item that was empty a moment ago',
  '',
  '```rust',
  'fn main() {',
  '    let greeting = "hello";',
  '    println!("{greeting}");',
  '    let total: u32 = (1..=10).sum();',
  '    println!("{total}");',
  '}',
  '```',
  '',
  '| step | cost |',
  '| --- | --- |',
  '| lex | 3 ms |',
  '',
  'The end.',
].join('\n');

test('a streamed reply grows block by block and ends as the stored message renders', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.addInitScript(() => {
    // Samples every frame: the first paragraph's element once finished, and how growing code looks.
    const seen = { firstParagraph: null as Element | null, growingCode: 0, highlightedWhileGrowing: 0, copyWhileGrowing: 0 };
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    const sample = () => {
      const reply = document.querySelector('article.message.assistant[data-status="streaming"] .markdown');
      if (reply) {
        // Finished once the list after it has started.
        if (reply.querySelector('ul')) seen.firstParagraph ??= reply.querySelector('p');
        const growing = reply.querySelector('.code-block[data-growing]');
        if (growing) {
          seen.growingCode += 1;
          if (growing.querySelector('[class^="hljs-"]')) seen.highlightedWhileGrowing += 1;
          if (growing.querySelector('button')) seen.copyWhileGrowing += 1;
        }
      }
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  await boot(page, { settings: withProvider, script: [{ text: reply, chunk: 3, delayMs: 12, paced: true }] });
  await page.getByRole('button', { name: /New chat/ }).first().click();
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('Stream something');
  await input.press('Enter');

  const done = page.locator('article.message.assistant[data-status="complete"]');
  await expect(done).toContainText('The end.', { timeout: 20_000 });
  const seen = await page.evaluate(() => {
    const s = (window as unknown as { __seen: { firstParagraph: Element | null; growingCode: number; highlightedWhileGrowing: number; copyWhileGrowing: number } }).__seen;
    const first = document.querySelector('article.message.assistant .markdown p');
    return { same: !!s.firstParagraph && s.firstParagraph === first, growing: s.growingCode, highlighted: s.highlightedWhileGrowing, copy: s.copyWhileGrowing };
  });
  expect(seen).toEqual({ same: true, growing: seen.growing, highlighted: 0, copy: 0 });
  expect(seen.growing).toBeGreaterThan(0);

  const streamed = await done.locator('.markdown').innerHTML();
  const code = done.locator('.code-block');
  await expect(code.locator('.code-lang')).toHaveText('rust');
  await expect(code.locator('code .hljs-keyword').first()).toHaveText('fn');
  await code.getByRole('button', { name: 'Copy' }).click();
  await expect(code.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(reply.split('```rust\n')[1].split('\n```')[0]);
  await expect(done.locator('li')).toHaveCount(3);
  await expect(done.locator('table td').first()).toHaveText('lex');

  // Opened again from the store, the message is rendered in one go: the same HTML.
  const chatId = await page.locator('li.session').first().getAttribute('data-session-id');
  await page.getByRole('button', { name: /New chat/ }).first().click();
  await expect(page.locator('article.message')).toHaveCount(0);
  await page.locator(`li.session[data-session-id="${chatId}"] .session-open`).click();
  const reopened = page.locator('article.message.assistant .markdown');
  await expect(reopened).toContainText('The end.');
  expect(await reopened.innerHTML()).toBe(streamed);
});

test('a code fence streamed a character at a time never shows a lone backtick', async ({ page }) => {
  await page.addInitScript(() => {
    // Samples every frame: paragraphs and code lines of the streaming reply made only of backticks.
    const strays: string[] = [];
    (window as unknown as { __strays: string[] }).__strays = strays;
    let frames = 0;
    const sample = () => {
      const reply = document.querySelector('article.message.assistant[data-status="streaming"] .markdown');
      if (reply) {
        frames += 1;
        (window as unknown as { __frames: number }).__frames = frames;
        for (const el of reply.querySelectorAll('p, code')) {
          const lines = (el.textContent ?? '').split('\n');
          if (lines.some((line) => /^\s*`+\s*$/.test(line))) strays.push(el.outerHTML);
        }
      }
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  const text = 'Run this:\n\n```sh\nls -la\n```\n\nThen this:\n\n```\npwd\n```\n\nDone.';
  await boot(page, { settings: withProvider, script: [{ text, chunk: 1, delayMs: 40, paced: true }] });
  await page.getByRole('button', { name: /New chat/ }).first().click();
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('Show me commands');
  await input.press('Enter');
  await expect(page.locator('article.message.assistant[data-status="complete"]')).toContainText('Done.', { timeout: 20_000 });
  const { strays, frames } = await page.evaluate(() => ({
    strays: (window as unknown as { __strays: string[] }).__strays,
    frames: (window as unknown as { __frames: number }).__frames,
  }));
  expect(frames).toBeGreaterThan(20);
  expect(strays).toEqual([]);
  await expect(page.locator('article.message.assistant .code-block')).toHaveCount(2);
});
