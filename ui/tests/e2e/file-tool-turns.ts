// Scripted file-tool turns in each dialect's names and result shapes (as the Rust tools return
// them), for the diff and search-hit cards.
import type { Step } from './fake-backend';

function tool(name: string, args: unknown, result: unknown): Step {
  return { tool: { name, arguments: JSON.stringify(args), result: JSON.stringify(result) } };
}

const created = '--- /dev/null\n+++ b/src/app.txt\n@@ -0,0 +1,3 @@\n+alpha\n+beta\n+gamma\n';
const edited = '--- a/src/app.txt\n+++ b/src/app.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n';
const patched = '--- a/src/app.txt\n+++ b/src/app.txt\n@@ -1,3 +1,4 @@\n alpha\n BETA\n gamma\n+delta\n';

/** Hearth / Echo: write_file, edit_file, patch, search_files (content and glob). */
export const hearthTurn: Step[] = [
  tool('write_file', { path: 'src/app.txt', content: 'alpha\nbeta\ngamma\n' }, { path: 'src/app.txt', bytes_written: 17, created: true, diff: created }),
  tool('edit_file', { path: 'src/app.txt', old_string: 'beta', new_string: 'BETA' }, { path: 'src/app.txt', replacements: 1, diff: edited }),
  tool(
    'patch',
    { file_path: 'src/app.txt', patch: '@@ -2,2 +2,3 @@\n BETA\n gamma\n+delta\n' },
    { path: 'src/app.txt', hunks_applied: 1, fuzzy: [], created: false, diff: patched },
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
  ),
  tool('search_files', { pattern: '*.txt', mode: 'glob' }, { pattern: '*.txt', mode: 'glob', files: [{ path: 'src/app.txt', kind: 'file' }], count: 1, truncated: false }),
  { text: 'All done.' },
];

/** CeeCore: write_file and its append (no edit, patch or search tools in this dialect). */
export const ceecoreTurn: Step[] = [
  tool(
    'write_file',
    { path: 'notes/log.txt', content: 'second\n', append: true },
    { path: 'notes/log.txt', bytes_written: 7, created: false, diff: '--- a/notes/log.txt\n+++ b/notes/log.txt\n@@ -1 +1,2 @@\n first\n+second\n' },
  ),
  { text: 'Appended.' },
];

/** PicoBot: file_write, file_edit, content_search, file_search. */
export const picobotTurn: Step[] = [
  tool(
    'file_write',
    { path: 'docs/readme.md', content: '# Title\nold line\n' },
    { path: 'docs/readme.md', bytes_written: 17, created: true, diff: '--- /dev/null\n+++ b/docs/readme.md\n@@ -0,0 +1,2 @@\n+# Title\n+old line\n' },
  ),
  tool(
    'file_edit',
    { path: 'docs/readme.md', old_string: 'old line', new_string: 'new line' },
    { path: 'docs/readme.md', replacements: 1, diff: '--- a/docs/readme.md\n+++ b/docs/readme.md\n@@ -1,2 +1,2 @@\n # Title\n-old line\n+new line\n' },
  ),
  tool('content_search', { pattern: 'new' }, { pattern: 'new', mode: 'content', matches: [{ path: 'docs/readme.md', line_number: 2, line: 'new line' }], count: 1, truncated: false }),
  tool('file_search', { pattern: '*.md' }, { pattern: '*.md', mode: 'glob', files: [{ path: 'docs/readme.md', kind: 'file' }, { path: 'docs', kind: 'dir' }], count: 2, truncated: true }),
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
  ),
  tool(
    'search_files',
    { pattern: 'img' },
    { pattern: 'img', mode: 'content', matches: [{ path: `${hostile}.html`, line_number: 1, line: hostile }], count: 1, truncated: false },
  ),
  { text: 'ok' },
];
