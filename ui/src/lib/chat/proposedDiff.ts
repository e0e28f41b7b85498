// What an edit asking for approval would change, from its arguments alone: edit_file / file_edit
// (old_string → new_string), patch (unified diff or SEARCH/REPLACE blocks) and write_file /
// file_write (the content to be written). Plain strings only; rendered as text.
import { parseUnifiedDiff, type DiffLine, type DiffView } from './fileTools';
import type { ToolCard } from './rows';

const EDIT_TOOLS = new Set(['edit_file', 'file_edit']);
const WRITE_TOOLS = new Set(['write_file', 'file_write']);
const SEARCH_REPLACE = /^<{5,9} SEARCH\n([\s\S]*?)\n?={5,9}\n([\s\S]*?)\n?>{5,9} REPLACE$/gm;

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function split(value: string): string[] {
  if (value === '') return [];
  return (value.endsWith('\n') ? value.slice(0, -1) : value).split('\n');
}

function removed(value: string): DiffLine[] {
  return split(value).map((line) => ({ kind: 'del', text: line, oldNo: null, newNo: null }));
}

function added(value: string): DiffLine[] {
  return split(value).map((line) => ({ kind: 'add', text: line, oldNo: null, newNo: null }));
}

function patchLines(patch: string): DiffLine[] {
  const blocks = [...patch.matchAll(SEARCH_REPLACE)];
  if (blocks.length === 0) return parseUnifiedDiff(patch);
  return blocks.flatMap((block, i) => [
    { kind: 'hunk' as const, text: `@@ block ${i + 1} @@`, oldNo: null, newNo: null },
    ...removed(block[1]),
    ...added(block[2]),
  ]);
}

function args(card: ToolCard): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(card.call.arguments);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The change an edit, patch or write would make, or null for other tools and malformed
 * arguments (the approval card then shows only the arguments). */
export function proposedDiff(card: ToolCard): DiffView | null {
  const name = card.call.name;
  const a = args(card);
  if (!a) return null;
  let lines: DiffLine[] | null = null;
  if (EDIT_TOOLS.has(name)) {
    const before = text(a.old_string);
    const after = text(a.new_string);
    if (before !== null && after !== null) lines = [...removed(before), ...added(after)];
  } else if (name === 'patch') {
    const patch = text(a.patch);
    if (patch !== null) lines = patchLines(patch);
  } else if (WRITE_TOOLS.has(name)) {
    const content = text(a.content);
    if (content !== null) lines = added(content);
  }
  if (!lines) return null;
  return {
    kind: 'diff',
    path: text(a.path) ?? text(a.file_path) ?? '',
    lines,
    added: lines.filter((l) => l.kind === 'add').length,
    removed: lines.filter((l) => l.kind === 'del').length,
    truncated: false,
  };
}
