import { describe, expect, it } from 'vitest';
import { fileToolView, highlight, highlighter, parseUnifiedDiff, type DiffView, type SearchView } from './fileTools';
import type { ToolCard } from './rows';

function card(name: string, args: unknown, result: unknown, isError = false): ToolCard {
  return {
    call: { id: 'c1', name, arguments: JSON.stringify(args) },
    status: isError ? 'error' : 'ok',
    result: { call_id: 'c1', name, content: typeof result === 'string' ? result : JSON.stringify(result), is_error: isError, duration_ms: 3 },
    approval: null,
  };
}

const editDiff = '--- a/src/main.rs\n+++ b/src/main.rs\n@@ -1,3 +1,3 @@\n fn main() {\n-    println!("hi");\n+    println!("hello");\n }\n';

describe('parseUnifiedDiff', () => {
  it('numbers context, removed and added lines from the hunk header', () => {
    expect(parseUnifiedDiff(editDiff)).toEqual([
      { kind: 'file', text: '--- a/src/main.rs', oldNo: null, newNo: null },
      { kind: 'file', text: '+++ b/src/main.rs', oldNo: null, newNo: null },
      { kind: 'hunk', text: '@@ -1,3 +1,3 @@', oldNo: null, newNo: null },
      { kind: 'context', text: 'fn main() {', oldNo: 1, newNo: 1 },
      { kind: 'del', text: '    println!("hi");', oldNo: 2, newNo: null },
      { kind: 'add', text: '    println!("hello");', oldNo: null, newNo: 2 },
      { kind: 'context', text: '}', oldNo: 3, newNo: 3 },
    ]);
  });

  it('restarts numbering at each hunk and keeps cut notes and stray text as notes', () => {
    const lines = parseUnifiedDiff('@@ -10 +12,2 @@\n-a\n+b\n+c\n@@ -40,2 +43 @@\n x\n-y\n\\ diff cut here: 9 more lines not shown\n');
    expect(lines.map((l) => [l.kind, l.oldNo, l.newNo])).toEqual([
      ['hunk', null, null],
      ['del', 10, null],
      ['add', null, 12],
      ['add', null, 13],
      ['hunk', null, null],
      ['context', 40, 43],
      ['del', 41, null],
      ['note', null, null],
    ]);
    expect(parseUnifiedDiff('')).toEqual([]);
    expect(parseUnifiedDiff('not a diff\n+++ stray').map((l) => l.kind)).toEqual(['note', 'file']);
  });

  it('keeps a line that looks like a header inside a hunk as a change', () => {
    const lines = parseUnifiedDiff('@@ -1 +1 @@\n--- old\n+++ new\n');
    expect(lines.slice(1)).toEqual([
      { kind: 'del', text: '-- old', oldNo: 1, newNo: null },
      { kind: 'add', text: '++ new', oldNo: null, newNo: 1 },
    ]);
  });
});

describe('highlight', () => {
  it('marks every match, ignoring empty ones', () => {
    expect(highlight('alpha beta alpha', highlighter('alpha'))).toEqual([
      { text: 'alpha', hit: true },
      { text: ' beta ', hit: false },
      { text: 'alpha', hit: true },
    ]);
    expect(highlight('abc', highlighter('x*'))).toEqual([{ text: 'abc', hit: false }]);
  });

  it('turns a leading (?i) into the ignore-case flag', () => {
    expect(highlight('Todo: TODO', highlighter('(?i)todo')).filter((s) => s.hit).map((s) => s.text)).toEqual(['Todo', 'TODO']);
  });

  it('shows plain text for patterns JavaScript cannot read or might backtrack on', () => {
    for (const pattern of ['(?x) a b', '[', '(?P<name>a)(', '(a+)+$', '(\\w*)*x']) {
      expect(highlighter(pattern), pattern).toBeNull();
      expect(highlight('aaa', highlighter(pattern))).toEqual([{ text: 'aaa', hit: false }]);
    }
    expect(highlight('a'.repeat(3000), highlighter('a'))).toEqual([{ text: 'a'.repeat(3000), hit: false }]);
  });
});

describe('fileToolView', () => {
  it('shows the diff of edit_file, patch and write_file results in every dialect', () => {
    for (const name of ['edit_file', 'file_edit', 'patch', 'write_file', 'file_write']) {
      const view = fileToolView(card(name, { path: 'src/main.rs' }, { path: 'src/main.rs', replacements: 1, diff: editDiff })) as DiffView;
      expect(view.kind, name).toBe('diff');
      expect([view.path, view.added, view.removed, view.truncated]).toEqual(['src/main.rs', 1, 1, false]);
    }
    const cut = fileToolView(card('patch', { file_path: 'a.txt' }, { diff: '@@ -1 +1 @@\n-a\n+b\n', diff_truncated: true })) as DiffView;
    expect([cut.path, cut.truncated]).toEqual(['a.txt', true]);
  });

  it('groups content hits by file and highlights the pattern from the call', () => {
    const result = {
      pattern: 'fn \\w+',
      mode: 'content',
      matches: [
        { path: 'src/a.rs', line_number: 3, line: 'pub fn one() {}' },
        { path: 'src/b.rs', line_number: 1, line: 'fn two() {}' },
        { path: 'src/a.rs', line_number: 9, line: 'fn three() {}' },
      ],
      count: 3,
      truncated: true,
    };
    for (const name of ['search_files', 'content_search']) {
      const view = fileToolView(card(name, { pattern: 'fn \\w+' }, result)) as SearchView;
      expect(view.kind).toBe('search');
      expect([view.count, view.truncated]).toEqual([3, true]);
      expect(view.groups.map((g) => [g.path, g.hits.map((h) => h.lineNumber)])).toEqual([
        ['src/a.rs', [3, 9]],
        ['src/b.rs', [1]],
      ]);
      expect(view.groups[0].hits[0].segments).toEqual([
        { text: 'pub ', hit: false },
        { text: 'fn one', hit: true },
        { text: '() {}', hit: false },
      ]);
    }
  });

  it('lists the files a glob search found', () => {
    const files = { pattern: '*.md', mode: 'glob', files: [{ path: 'README.md', kind: 'file' }, { path: 'docs', kind: 'dir' }], count: 2, truncated: false };
    for (const name of ['search_files', 'file_search']) {
      expect(fileToolView(card(name, { pattern: '*.md' }, files))).toEqual({
        kind: 'files',
        pattern: '*.md',
        files: [
          { path: 'README.md', kind: 'file' },
          { path: 'docs', kind: 'dir' },
        ],
        truncated: false,
      });
    }
  });

  it('falls back to the plain card for errors, other tools, spills and malformed results', () => {
    const error = { error: { kind: 'not_permitted', message: '`../x` is outside the workspace' } };
    expect(fileToolView(card('write_file', {}, error, true))).toBeNull();
    expect(fileToolView(card('exec', {}, { diff: editDiff }))).toBeNull();
    expect(fileToolView(card('edit_file', {}, { spill_path: '/data/spill/x.json', note: 'cut' }))).toBeNull();
    expect(fileToolView(card('edit_file', {}, 'not json'))).toBeNull();
    expect(fileToolView(card('edit_file', {}, [1, 2]))).toBeNull();
    expect(fileToolView(card('write_file', {}, { path: 'gbk.txt', bytes_written: 4, created: true }))).toBeNull();
    expect(fileToolView(card('search_files', {}, { count: 0 }))).toBeNull();
    const running: ToolCard = { ...card('patch', {}, {}), result: null, status: 'running' };
    expect(fileToolView(running)).toBeNull();
  });

  it('skips malformed hits and keeps hostile text as plain strings', () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const view = fileToolView(
      card('content_search', { pattern: 'img' }, {
        matches: [{ path: hostile, line_number: 1, line: hostile }, { path: 'x', line_number: '2', line: 'y' }, null, 'z', { path: 'x' }],
      }),
    ) as SearchView;
    expect(view.count).toBe(1);
    expect(view.groups).toHaveLength(1);
    expect(view.groups[0].path).toBe(hostile);
    expect(view.groups[0].hits[0].segments.map((s) => s.text).join('')).toBe(hostile);
  });
});
