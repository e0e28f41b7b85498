import { describe, expect, it } from 'vitest';
import { proposedDiff } from './proposedDiff';
import type { ToolCard } from './rows';

function asking(name: string, args: unknown): ToolCard {
  return {
    call: { id: 'c1', name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
    status: 'awaiting_approval',
    result: null,
    approval: { requestId: 'r1', reason: 'edits files', code: null, agent: null, decision: null, sent: null },
  };
}

const kinds = (card: ToolCard) => proposedDiff(card)?.lines.map((l) => `${l.kind}:${l.text}`);

describe('proposedDiff', () => {
  it('shows an edit as its old lines removed and new lines added, in every dialect', () => {
    for (const name of ['edit_file', 'file_edit']) {
      const view = proposedDiff(asking(name, { path: 'src/a.rs', old_string: 'let x = 1;\nlet y = 2;', new_string: 'let x = 3;' }));
      expect(view).toMatchObject({ kind: 'diff', path: 'src/a.rs', added: 1, removed: 2, truncated: false });
      expect(view?.lines.map((l) => `${l.kind}:${l.text}`)).toEqual(['del:let x = 1;', 'del:let y = 2;', 'add:let x = 3;']);
    }
  });

  it('reads a unified-diff patch with its line numbers', () => {
    const view = proposedDiff(asking('patch', { file_path: 'README.md', patch: '@@ -2,2 +2,2 @@\n keep\n-old\n+new\n' }));
    expect(view?.path).toBe('README.md');
    expect(view?.lines).toContainEqual({ kind: 'del', text: 'old', oldNo: 3, newNo: null });
    expect(view?.lines).toContainEqual({ kind: 'add', text: 'new', oldNo: null, newNo: 3 });
  });

  it('reads SEARCH/REPLACE blocks, one hunk each, including an empty search', () => {
    const patch = '<<<<<<< SEARCH\nfoo()\n=======\nbar()\nbaz()\n>>>>>>> REPLACE\n<<<<< SEARCH\n=====\nadded\n>>>>> REPLACE\n';
    expect(kinds(asking('patch', { path: 'x.py', patch }))).toEqual([
      'hunk:@@ block 1 @@', 'del:foo()', 'add:bar()', 'add:baz()', 'hunk:@@ block 2 @@', 'add:added',
    ]);
  });

  it('shows the content a write would put in the file', () => {
    const view = proposedDiff(asking('file_write', { path: 'notes.md', content: '# Title\n\nbody\n' }));
    expect(view).toMatchObject({ path: 'notes.md', added: 3, removed: 0 });
  });

  it('keeps hostile text as plain strings', () => {
    const view = proposedDiff(asking('write_file', { path: '<img src=x onerror=alert(1)>', content: '<script>alert(1)</script>' }));
    expect(view?.path).toBe('<img src=x onerror=alert(1)>');
    expect(view?.lines[0].text).toBe('<script>alert(1)</script>');
  });

  it('gives nothing for other tools, malformed arguments or missing fields', () => {
    expect(proposedDiff(asking('exec', { command: 'rm -rf /' }))).toBeNull();
    expect(proposedDiff(asking('edit_file', '{not json'))).toBeNull();
    expect(proposedDiff(asking('edit_file', '[1,2]'))).toBeNull();
    expect(proposedDiff(asking('edit_file', { path: 'a', old_string: 1, new_string: 'b' }))).toBeNull();
    expect(proposedDiff(asking('patch', { path: 'a' }))).toBeNull();
  });
});
