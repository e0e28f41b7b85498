// Artifacts and the knowledge base in the window: a delivered artifact's card opens the side
// panel (Markdown rendered through the chat's sanitizer, CSV as a table, JSON pretty-printed)
// with its counts, "Save as…" and "Copy"; the Knowledge page shows folders, a pass's progress,
// unreadable files and cited search results that open their file; so do knowledge_search cards.
import type { ArtifactView } from '../../src/lib/bindings/ArtifactView';
import type { Citation } from '../../src/lib/bindings/Citation';
import type { Message } from '../../src/lib/bindings/Message';
import { boot, callsTo, expect, session, test, textMessage, withProvider } from './fixtures';

function artifact(id: string, filename: string, format: string, content: string): ArtifactView {
  return {
    id,
    session_id: 'desktop:a',
    filename,
    title: filename === 'report.md' ? '季度报告' : '',
    state: 'final',
    bytes: content.length,
    content,
    format,
    format_error: null,
    characters: 42,
    cjk_characters: 12,
    english_words: 5,
    lines: 6,
    paragraphs: 3,
    headings: 1,
  };
}

const artifacts = [
  artifact('art_md', 'report.md', 'markdown', '# 季度报告\n\nRevenue grew **12%**.\n\n<img src=x onerror="window.__pwned=1">\n'),
  artifact('art_csv', 'sales.csv', 'csv', 'region,amount\n"North, East",120\n南方,80\n'),
  artifact('art_json', 'data.json', 'json', '{"a":[1,2]}'),
];

function delivered(id: number, parts: [string, string, number][]): Message {
  const m = textMessage(id, 'desktop:a', 'assistant', 'Here are the deliverables.');
  m.content.push(...parts.map(([name, artifactId, size]) => ({ type: 'artifact' as const, id: artifactId, name, size })));
  return m;
}

const chat = session('desktop:a', 'Reports', { message_count: 2 });
const messages = {
  'desktop:a': [
    textMessage(1, 'desktop:a', 'user', 'Write the reports'),
    delivered(2, [['report.md', 'art_md', 80], ['sales.csv', 'art_csv', 40], ['data.json', 'art_json', 11]]),
  ],
};

test('an artifact card opens the side panel with a preview, counts, Save as and Copy', async ({ page, context, problems }) => {
  // DOMPurify parses the Markdown in an inert document, where Chromium reports the inline
  // handler against the CSP; none reaches the live page (checked below).
  problems.allow(/Executing inline event handler violates/);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await boot(page, { settings: withProvider, sessions: [chat], messages, artifacts, savedTo: '/home/u/report.md' });
  await page.getByRole('button', { name: 'Reports' }).first().click();
  const card = page.getByRole('button', { name: 'Artifact report.md' });
  await expect(card).toBeVisible();
  await card.click();
  const panel = page.getByRole('complementary', { name: 'Artifact' });
  await expect(panel.getByRole('heading', { name: '季度报告' }).first()).toBeVisible();
  await expect(panel.locator('.artifact-preview h1')).toHaveText('季度报告');
  await expect(panel.locator('.artifact-preview strong')).toHaveText('12%');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(panel.locator('.artifact-preview img[onerror]')).toHaveCount(0);
  await expect(panel.locator('.artifact-counts')).toHaveText(
    '42 characters · 12 CJK characters · 5 English words · 6 lines · 3 paragraphs · 1 headings',
  );
  await panel.getByRole('button', { name: 'Save as…' }).click();
  await expect(page.getByText('Saved to /home/u/report.md')).toBeVisible();
  expect((await callsTo(page, 'save_artifact')).map((c) => c.args.id)).toEqual(['art_md']);
  await panel.getByRole('button', { name: 'Copy' }).click();
  await expect(panel.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(artifacts[0].content);

  await page.getByRole('button', { name: 'Artifact sales.csv' }).click();
  await expect(panel.locator('thead th')).toHaveText(['region', 'amount']);
  await expect(panel.locator('tbody tr').first().locator('td')).toHaveText(['North, East', '120']);
  await expect(panel.locator('tbody tr').nth(1).locator('td')).toHaveText(['南方', '80']);
  await page.getByRole('button', { name: 'Artifact data.json' }).click();
  await expect(panel.locator('.artifact-preview pre')).toHaveText('{\n  "a": [\n    1,\n    2\n  ]\n}');
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(panel).toHaveCount(0);
});

const citations: Citation[] = [
  { file: '/k/report.pdf', unit: 'page', first: 2, last: 2, label: null, citation: 'report.pdf, page 2', snippet: '第二页：季度销售报告，收入增长百分之十二。', score: 3 },
  { file: '/k/notes.md', unit: 'line', first: 10, last: 24, label: null, citation: 'notes.md, lines 10-24', snippet: 'Revenue review with the sales team', score: 1 },
];

test('the Knowledge page shows folders, a pass with its progress, unreadable files and cited results', async ({ page }) => {
  await boot(page, {
    settings: withProvider,
    dialog: '/home/u/Documents',
    passFiles: 3,
    citations,
    knowledge: {
      folders: ['/home/u/.hearth/workspace/knowledge'],
      files: 2,
      chunks: 9,
      errors: 1,
      last_indexed: null,
      watching: true,
      progress: { running: false, total: 0, done: 0, current: null, last: null },
      file_errors: [{ path: '/k/scan.pdf', error: { code: 'no_text_layer' } }],
    },
  });
  await page.getByRole('button', { name: 'Knowledge' }).click();
  await expect(page.locator('.knowledge-counts')).toHaveText('2 files · 9 chunks · 1 unreadable');
  await expect(page.locator('.knowledge-errors li')).toContainText('scan.pdf no text layer');
  await page.getByRole('button', { name: 'Add folder…' }).click();
  // Saved with the default folder kept; the app starts indexing at once (nothing to click), and
  // its progress events move the bar: the scan, each file of three, then the counts.
  const progress = page.locator('.knowledge-progress');
  await expect(progress).toHaveText('Looking for files…');
  await expect(page.locator('.knowledge-status')).toHaveAttribute('data-running', 'true');
  const step = () => page.evaluate(() => (window as unknown as { __hearth: { indexStep(): void } }).__hearth.indexStep());
  await step();
  await expect(progress).toHaveText('Indexing 0 of 3');
  await step();
  await expect(progress).toHaveText('Indexing 1 of 3');
  await expect(progress.locator('progress')).toHaveAttribute('value', String(1 / 3));
  await step();
  await step();
  await expect(page.locator('.knowledge-status')).toHaveAttribute('data-running', 'false');
  await expect(page.locator('.knowledge-counts')).toHaveText('5 files · 9 chunks · 1 unreadable');
  await expect(page.locator('.knowledge-folders code')).toHaveText(['/home/u/.hearth/workspace/knowledge', '/home/u/Documents']);
  const saved = (await callsTo(page, 'save_settings')).map((c) => (c.args.settings as { knowledge: { folders: string[] } }).knowledge.folders);
  expect(saved).toEqual([['/home/u/.hearth/workspace/knowledge', '/home/u/Documents']]);
  expect(await callsTo(page, 'knowledge_rebuild')).toHaveLength(0);

  const search = page.getByRole('searchbox', { name: 'Search the knowledge base' });
  await search.fill('季度');
  const hit = page.getByRole('button', { name: 'Open report.pdf, page 2' });
  await expect(hit).toBeVisible();
  await expect(page.locator('.knowledge-hits .snippet')).toHaveText(['第二页：季度销售报告，收入增长百分之十二。']);
  await hit.click();
  expect((await callsTo(page, 'open_knowledge_file')).map((c) => c.args)).toEqual([{ path: '/k/report.pdf', unit: 'page', first: 2 }]);
  // No viewer here takes a page: the window says the file opened, not at its page.
  await expect(page.locator('.toast').filter({ hasText: 'Opened the file, but not at page 2' })).toBeVisible();
  await search.fill('nothing-like-this');
  await expect(page.locator('.knowledge-empty')).toHaveText('Nothing in the knowledge base matches “nothing-like-this”.');

  // The watch switch is saved to settings and applied without a restart.
  const watch = page.getByRole('switch', { name: 'Follow changes to these folders while Hearth runs' });
  await expect(watch).toBeChecked();
  await expect(page.locator('.knowledge-status')).toContainText('Following changes');
  await watch.uncheck();
  await expect(page.locator('.knowledge-status')).not.toContainText('Following changes');
  await watch.check();
  await expect(page.locator('.knowledge-status')).toContainText('Following changes');
  const watched = (await callsTo(page, 'save_settings')).map((c) => (c.args.settings as { knowledge: { watch: boolean } }).knowledge.watch);
  expect(watched.slice(-2)).toEqual([false, true]);
});

test('unreadable files say why in Chinese, from the typed reason; a sentence an older index stored shows as it was', async ({ page }) => {
  await boot(page, {
    settings: { ...withProvider, language: 'zh-CN' },
    knowledge: {
      folders: ['/home/u/资料'],
      files: 4,
      chunks: 9,
      errors: 3,
      last_indexed: null,
      watching: true,
      progress: { running: false, total: 0, done: 0, current: null, last: null },
      file_errors: [
        { path: '/home/u/资料/empty.md', error: { code: 'empty' } },
        { path: '/home/u/资料/program.txt', error: { code: 'corrupt', params: { format: 'txt', reason: 'it is a program (an ELF executable), not text' } } },
        { path: '/home/u/资料/old.pdf', error: 'no text layer: this looks like a scanned document (OCR is not available)' },
      ],
    },
  });
  await page.getByRole('button', { name: '知识库' }).click();
  const rows = page.locator('.knowledge-errors li');
  await expect(rows).toHaveText([
    '/home/u/资料/empty.md 文件是空的（0 字节）',
    '/home/u/资料/program.txt 这个 txt 文件已损坏，或与其扩展名不符',
    '/home/u/资料/old.pdf no text layer: this looks like a scanned document (OCR is not available)',
  ]);
  await expect(rows.nth(1).locator('span')).toHaveAttribute('title', 'it is a program (an ELF executable), not text');
});

test('a knowledge_search card in the chat lists its citations, each opening its file at its place', async ({ page }) => {
  const chatSession = session('desktop:k', 'Research');
  await boot(page, {
    settings: withProvider,
    sessions: [chatSession],
    viewers: ['line'],
    script: [{ tool: { name: 'knowledge_search', arguments: '{"query":"revenue"}', result: JSON.stringify({ query: 'revenue', count: 2, results: citations }), views: [{ kind: 'citations', hits: citations }] } }, { text: 'Revenue grew 12% (report.pdf, page 2).' }],
  });
  await page.getByRole('button', { name: 'Research' }).first().click();
  const input = page.locator('.composer textarea');
  await input.fill('What happened to revenue?');
  await input.press('Enter');
  const open = page.getByRole('button', { name: 'Open notes.md, lines 10–24' });
  await expect(open).toBeVisible();
  await open.click();
  expect((await callsTo(page, 'open_knowledge_file')).map((c) => c.args)).toEqual([{ path: '/k/notes.md', unit: 'line', first: 10 }]);
  // An editor took the line: nothing more to say.
  await expect(page.locator('.toast')).toHaveCount(0);
});
