import type { Page } from '@playwright/test';
import type { Step } from './fake-backend';
import { ceecoreTurn, hearthTurn, hostileTurn, longWriteTurn, picobotTurn } from './file-tool-turns';
import { boot, expect, runScriptedTurn, session, test, textMessage, withProvider } from './fixtures';
import { found } from './tool-views';

function runTurn(page: Page, script: Step[], settings: object = {}) {
  return runScriptedTurn(page, script, settings, 'work on the files');
}

/** The visible rows of a diff card as [old no, new no, kind, text]. */
async function diffRows(card: import('@playwright/test').Locator) {
  return card.locator('.diff-line').evaluateAll((rows) =>
    rows.map((r) => {
      const cells = r.querySelectorAll('[role=cell]');
      const text = cells[2].textContent ?? '';
      return [cells[0].textContent, cells[1].textContent, r.getAttribute('data-kind'), text];
    }),
  );
}

test('hearth names: write, edit and patch show coloured diffs; search shows hits grouped by file', async ({ page }) => {
  await runTurn(page, hearthTurn);
  const cards = page.locator('.tool-card');
  await expect(cards).toHaveCount(5);

  const write = cards.nth(0);
  await expect(write).toHaveAttribute('data-tool', 'write_file');
  await expect(write.locator('.diff-view .file-path')).toHaveText('src/app.txt');
  await expect(write.locator('.diff-added')).toHaveText('+3');
  await expect(write.locator('.diff-removed')).toHaveText('−0');
  expect(await diffRows(write)).toEqual([
    ['', '', 'hunk', '@@ -0,0 +1,3 @@'],
    ['', '1', 'add', '+alpha'],
    ['', '2', 'add', '+beta'],
    ['', '3', 'add', '+gamma'],
  ]);

  const edit = cards.nth(1);
  expect(await diffRows(edit)).toEqual([
    ['', '', 'hunk', '@@ -1,3 +1,3 @@'],
    ['1', '1', 'context', ' alpha'],
    ['2', '', 'del', '-beta'],
    ['', '2', 'add', '+BETA'],
    ['3', '3', 'context', ' gamma'],
  ]);
  const added = await edit.locator('.diff-line[data-kind="add"]').evaluate((el) => getComputedStyle(el).backgroundColor);
  const removed = await edit.locator('.diff-line[data-kind="del"]').evaluate((el) => getComputedStyle(el).backgroundColor);
  const context = await edit.locator('.diff-line[data-kind="context"]').first().evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(new Set([added, removed, context]).size, 'added, removed and context lines look different').toBe(3);

  await expect(cards.nth(2).locator('.diff-line[data-kind="add"] .diff-text')).toHaveText('+delta');
  await expect(cards.nth(2).locator('.diff-line[data-kind="add"] .ln').nth(1)).toHaveText('4');

  const search = cards.nth(3);
  await expect(search.locator('.search-view .file-view-head')).toContainText('Matches: 3 · files: 2');
  await expect(search.locator('.hit-file')).toHaveText(['src/app.txt', 'docs/notes.md']);
  const first = search.locator('.hit-group').first();
  await expect(first.locator('.hit-line .ln')).toHaveText(['1', '2']);
  await expect(first.locator('mark')).toHaveText(['a', 'A']);
  await expect(first.locator('.hit-text').first()).toHaveText('alpha');
  await expect(search.locator('.hit-group').nth(1).locator('mark')).toHaveText('a');

  const glob = cards.nth(4);
  await expect(glob.locator('.found-files li')).toHaveText(['src/app.txt']);
  await expect(glob.locator('.file-view-head')).toContainText('Found: 1');

  // The JSON stays one click away. The list may still settle after the turn (rows rebuilt
  // from the store, heights measured), moving the card under the pointer: click until open.
  const toggle = edit.getByRole('button', { name: /edit_file/ });
  await expect(async () => {
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true', { timeout: 1_000 });
  }).toPass();
  await expect(edit.locator('pre.json').nth(1)).toContainText('"replacements": 1');
});

test('ceecore names: an append shows its diff', async ({ page }) => {
  await runTurn(page, ceecoreTurn);
  const card = page.locator('.tool-card[data-tool="write_file"]');
  expect(await diffRows(card)).toEqual([
    ['', '', 'hunk', '@@ -1 +1,2 @@'],
    ['1', '1', 'context', ' first'],
    ['', '2', 'add', '+second'],
  ]);
});

test('picobot names: file_write, file_edit, content_search and file_search get the same cards', async ({ page }) => {
  await runTurn(page, picobotTurn);
  await expect(page.locator('.tool-card[data-tool="file_write"] .diff-line[data-kind="add"] .diff-text')).toHaveText(['+# Title', '+old line']);
  await expect(page.locator('.tool-card[data-tool="file_edit"] .diff-line[data-kind="del"] .diff-text')).toHaveText('-old line');
  const hits = page.locator('.tool-card[data-tool="content_search"]');
  await expect(hits.locator('.hit-file')).toHaveText('docs/readme.md');
  await expect(hits.locator('mark')).toHaveText('new');
  const files = page.locator('.tool-card[data-tool="file_search"]');
  await expect(files.locator('.found-files li')).toHaveText(['docs/readme.md', 'docs (dir)']);
  await expect(files).toContainText('More results exist than were returned.');
});

test('a glob result with repeated paths renders each', async ({ page }) => {
  const repeated = { files: [{ path: 'a.md', kind: 'file' }, { path: 'a.md', kind: 'file' }], truncated: false };
  const views = [found('*.md', [['a.md', 'file'], ['a.md', 'file']])];
  await runTurn(page, [{ tool: { name: 'file_search', arguments: '{"pattern":"*.md"}', result: JSON.stringify(repeated), views } }, { text: 'ok' }]);
  await expect(page.locator('.found-files li')).toHaveText(['a.md', 'a.md']);
});

test('a result its tool could not have given shows as text', async ({ page }) => {
  const views = [{ kind: 'text', text: '{"diff": ', truncated: false } as const];
  await runTurn(page, [{ tool: { name: 'write_file', arguments: '{"path":"a"}', result: '{"diff": ', views } }, { text: 'ok' }]);
  await expect(page.locator('.tool-card pre.tool-text')).toHaveText('{"diff": ');
  await expect(page.locator('.tool-card .file-view')).toHaveCount(0);
});

test('a long diff starts collapsed and expands', async ({ page }) => {
  await runTurn(page, longWriteTurn);
  const card = page.locator('.tool-card[data-tool="write_file"]');
  await expect(card.locator('.diff-line')).toHaveCount(40);
  await card.getByRole('button', { name: 'Show all 121 lines' }).click();
  await expect(card.locator('.diff-line')).toHaveCount(121);
  await expect(card.locator('.diff-line').last()).toHaveText('120+row 120');
  await card.getByRole('button', { name: 'Show less' }).click();
  await expect(card.locator('.diff-line')).toHaveCount(40);
});

test('markup in diffs, paths and hits renders as text', async ({ page }) => {
  await runTurn(page, hostileTurn);
  const views = page.locator('.file-view');
  await expect(views).toHaveCount(2);
  await expect(views.locator('img, script, svg, b')).toHaveCount(0);
  await expect(page.locator('.diff-line[data-kind="del"] .diff-text')).toHaveText('-<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>');
  await expect(page.locator('.diff-view .file-path')).toHaveText('<b onmouseover="window.__pwned=1">page.html</b>');
  await expect(page.locator('.hit-group mark')).toHaveText('img');
  await page.locator('.diff-view .file-path').hover();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('the cards come back from stored messages, in Chinese', async ({ page }) => {
  const sid = 'desktop:files';
  const reply = textMessage(2, sid, 'assistant', '');
  const [edit, search] = [hearthTurn[1], hearthTurn[3]].map((step, n) => {
    if (!('tool' in step)) throw new Error('not a tool step');
    return { id: `call-${n}`, ...step.tool };
  });
  reply.tool_calls = [edit, search].map(({ id, name, arguments: args }) => ({ id, name, arguments: args }));
  const results = [edit, search].map((call, n) => ({
    ...textMessage(3 + n, sid, 'assistant', ''),
    role: 'tool' as const,
    content: [],
    tool_result: { call_id: call.id, name: call.name, content: call.result, is_error: false, duration_ms: 4, views: call.views },
  }));
  await boot(page, {
    settings: { ...withProvider, language: 'zh-CN' },
    sessions: [session(sid, 'Files')],
    messages: { [sid]: [textMessage(1, sid, 'user', 'edit it'), reply, ...results] },
  });
  await page.locator(`[data-session-id="${sid}"] .session-open`).click();
  const cards = page.locator('.tool-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0).locator('.diff-line[data-kind="add"] .diff-text')).toHaveText('+BETA');
  await expect(cards.nth(0).locator('.diff-view')).toHaveAttribute('aria-label', 'src/app.txt 的改动');
  await expect(cards.nth(1).locator('.file-view-head')).toContainText('匹配：3 · 文件：2');
  await expect(cards.nth(1).locator('.hit-file')).toHaveText(['src/app.txt', 'docs/notes.md']);
});

test('a card opened, scrolled out of the list and back, is still open', async ({ page }) => {
  const sid = 'desktop:long';
  const step = hearthTurn[1];
  if (!('tool' in step)) throw new Error('not a tool step');
  const call = { id: 'call-edit', name: step.tool.name, arguments: step.tool.arguments };
  const reply = { ...textMessage(2, sid, 'assistant', ''), tool_calls: [call] };
  const result = {
    ...textMessage(3, sid, 'assistant', ''),
    role: 'tool' as const,
    content: [],
    tool_result: { call_id: call.id, name: call.name, content: step.tool.result, is_error: false, duration_ms: 4, views: step.tool.views },
  };
  const later = Array.from({ length: 80 }, (_, i) => textMessage(4 + i, sid, i % 2 ? 'assistant' : 'user', `Later message ${i + 1}\n\n${'words '.repeat(40)}`));
  await boot(page, {
    settings: withProvider,
    sessions: [session(sid, 'Long', { message_count: 83 })],
    messages: { [sid]: [textMessage(1, sid, 'user', 'edit it'), reply, result, ...later] },
  });
  await page.locator(`[data-session-id="${sid}"] .session-open`).click();
  await expect(page.getByText('Later message 80')).toBeVisible();
  const card = page.locator('.tool-card[data-tool="edit_file"]');
  const scroll = async (dy: number, until: () => Promise<boolean>) => {
    await page.mouse.move(680, 400);
    await expect(async () => {
      await page.mouse.wheel(0, dy);
      expect(await until()).toBe(true);
    }).toPass();
  };
  await scroll(-4000, async () => (await card.count()) > 0);
  const toggle = card.getByRole('button', { name: /edit_file/ });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  // Far down the card leaves the DOM; back up it is built again, open.
  await scroll(4000, async () => (await card.count()) === 0);
  await scroll(-4000, async () => (await card.count()) > 0);
  await expect(card.getByRole('button', { name: /edit_file/ })).toHaveAttribute('aria-expanded', 'true');
  await expect(card.locator('pre.json').nth(1)).toContainText('"replacements": 1');
});
