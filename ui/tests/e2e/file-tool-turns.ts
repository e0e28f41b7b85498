// Scripted file-tool turns in each dialect's names and result shapes (as the Rust tools return
// them), each with the views the engine builds of it, for the diff and search-hit cards.
import type { ToolView } from '../../src/lib/bindings/ToolView';
import type { Step } from './fake-backend';
import { add, del, diff, fileHeader, found, hits, hunk, pieces, same } from './tool-views';

function tool(name: string, args: unknown, result: unknown, view: ToolView): Step {
  return { tool: { name, arguments: JSON.stringify(args), result: JSON.stringify(result), views: [view] } };
}

const appHeader = [fileHeader('--- a/src/app.txt'), fileHeader('+++ b/src/app.txt')];

const created = '--- /dev/null\n+++ b/src/app.txt\n@@ -0,0 +1,3 @@\n+alpha\n+beta\n+gamma\n';
const edited = '--- a/src/app.txt\n+++ b/src/app.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n';
const patched = '--- a/src/app.txt\n+++ b/src/app.txt\n@@ -1,3 +1,4 @@\n alpha\n BETA\n gamma\n+delta\n';

/** Hearth / Echo: write_file, edit_file, patch, search_files (content and glob). */
export const hearthTurn: Step[] = [
  tool(
    'write_file',
    { path: 'src/app.txt', content: 'alpha\nbeta\ngamma\n' },
    { path: 'src/app.txt', bytes_written: 17, created: true, diff: created },
    diff('src/app.txt', [fileHeader('--- /dev/null'), fileHeader('+++ b/src/app.txt'), hunk('@@ -0,0 +1,3 @@'), add('alpha', 1), add('beta', 2), add('gamma', 3)]),
  ),
  tool(
    'edit_file',
    { path: 'src/app.txt', old_string: 'beta', new_string: 'BETA' },
    { path: 'src/app.txt', replacements: 1, diff: edited },
    diff('src/app.txt', [...appHeader, hunk('@@ -1,3 +1,3 @@'), same('alpha', 1, 1), del('beta', 2), add('BETA', 2), same('gamma', 3, 3)]),
  ),
  tool(
    'patch',
    { file_path: 'src/app.txt', patch: '@@ -2,2 +2,3 @@\n BETA\n gamma\n+delta\n' },
    { path: 'src/app.txt', hunks_applied: 1, fuzzy: [], created: false, diff: patched },
    diff('src/app.txt', [...appHeader, hunk('@@ -1,3 +1,4 @@'), same('alpha', 1, 1), same('BETA', 2, 2), same('gamma', 3, 3), add('delta', 4)]),
  ),
  tool(
    'search_files',
    { pattern: '(?i)a$' },
    {
      pattern: '(?i)a$',
      mode: 'content',
      matches: [
        { path: 'src/app.txt', line_number: 1, line: 'alpha' },
        { path: 'docs/notes.md', line_number: 7, line: 'see the agenda' },
        { path: 'src/app.txt', line_number: 2, line: 'BETA' },
      ],
      count: 3,
      truncated: false,
    },
    hits('(?i)a$', [
      [
        'src/app.txt',
        [
          [1, pieces('alph', ['a'])],
          [2, pieces('BET', ['A'])],
        ],
      ],
      ['docs/notes.md', [[7, pieces('see the agend', ['a'])]]],
    ]),
  ),
  tool(
    'search_files',
    { pattern: '*.txt', mode: 'glob' },
    { pattern: '*.txt', mode: 'glob', files: [{ path: 'src/app.txt', kind: 'file' }], count: 1, truncated: false },
    found('*.txt', [['src/app.txt', 'file']]),
  ),
  { text: 'All done.' },
];

/** CeeCore: write_file and its append (no edit, patch or search tools in this dialect). */
export const ceecoreTurn: Step[] = [
  tool(
    'write_file',
    { path: 'notes/log.txt', content: 'second\n', append: true },
    { path: 'notes/log.txt', bytes_written: 7, created: false, diff: '--- a/notes/log.txt\n+++ b/notes/log.txt\n@@ -1 +1,2 @@\n first\n+second\n' },
    diff('notes/log.txt', [fileHeader('--- a/notes/log.txt'), fileHeader('+++ b/notes/log.txt'), hunk('@@ -1 +1,2 @@'), same('first', 1, 1), add('second', 2)]),
  ),
  { text: 'Appended.' },
];

/** PicoBot: file_write, file_edit, content_search, file_search. */
export const picobotTurn: Step[] = [
  tool(
    'file_write',
    { path: 'docs/readme.md', content: '# Title\nold line\n' },
    { path: 'docs/readme.md', bytes_written: 17, created: true, diff: '--- /dev/null\n+++ b/docs/readme.md\n@@ -0,0 +1,2 @@\n+# Title\n+old line\n' },
    diff('docs/readme.md', [fileHeader('--- /dev/null'), fileHeader('+++ b/docs/readme.md'), hunk('@@ -0,0 +1,2 @@'), add('# Title', 1), add('old line', 2)]),
  ),
  tool(
    'file_edit',
    { path: 'docs/readme.md', old_string: 'old line', new_string: 'new line' },
    { path: 'docs/readme.md', replacements: 1, diff: '--- a/docs/readme.md\n+++ b/docs/readme.md\n@@ -1,2 +1,2 @@\n # Title\n-old line\n+new line\n' },
    diff('docs/readme.md', [fileHeader('--- a/docs/readme.md'), fileHeader('+++ b/docs/readme.md'), hunk('@@ -1,2 +1,2 @@'), same('# Title', 1, 1), del('old line', 2), add('new line', 2)]),
  ),
  tool(
    'content_search',
    { pattern: 'new' },
    { pattern: 'new', mode: 'content', matches: [{ path: 'docs/readme.md', line_number: 2, line: 'new line' }], count: 1, truncated: false },
    hits('new', [['docs/readme.md', [[2, pieces(['new'], ' line')]]]]),
  ),
  tool(
    'file_search',
    { pattern: '*.md' },
    { pattern: '*.md', mode: 'glob', files: [{ path: 'docs/readme.md', kind: 'file' }, { path: 'docs', kind: 'dir' }], count: 2, truncated: true },
    found('*.md', [['docs/readme.md', 'file'], ['docs', 'dir']], true),
  ),
  { text: 'Edited.' },
];

/** A write whose diff has 120 added lines: the card starts collapsed. */
export const longWriteTurn: Step[] = [
  tool(
    'write_file',
    { path: 'big.txt', content: '…' },
    {
      path: 'big.txt',
      bytes_written: 1000,
      created: true,
      diff: `--- /dev/null\n+++ b/big.txt\n@@ -0,0 +1,120 @@\n${Array.from({ length: 120 }, (_, i) => `+row ${i + 1}\n`).join('')}`,
    },
    diff('big.txt', [
      fileHeader('--- /dev/null'),
      fileHeader('+++ b/big.txt'),
      hunk('@@ -0,0 +1,120 @@'),
      ...Array.from({ length: 120 }, (_, i) => add(`row ${i + 1}`, i + 1)),
    ]),
  ),
  { text: 'Wrote it.' },
];

const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';

/** File contents and paths with markup in them: they must show as text. */
export const hostileTurn: Step[] = [
  tool(
    'edit_file',
    { path: 'page.html', old_string: 'a', new_string: 'b' },
    { path: `<b onmouseover="window.__pwned=1">page.html</b>`, replacements: 1, diff: `--- a/page.html\n+++ b/page.html\n@@ -1 +1 @@\n-${hostile}\n+<svg onload="window.__pwned=1"></svg>\n` },
    diff(`<b onmouseover="window.__pwned=1">page.html</b>`, [
      fileHeader('--- a/page.html'),
      fileHeader('+++ b/page.html'),
      hunk('@@ -1 +1 @@'),
      del(hostile, 1),
      add('<svg onload="window.__pwned=1"></svg>', 1),
    ]),
  ),
  tool(
    'search_files',
    { pattern: 'img' },
    { pattern: 'img', mode: 'content', matches: [{ path: `${hostile}.html`, line_number: 1, line: hostile }], count: 1, truncated: false },
    hits('img', [[`${hostile}.html`, [[1, pieces('<', ['img'], hostile.slice(4))]]]]),
  ),
  { text: 'ok' },
];
