// What the file tools' results show in a tool card: the unified diff of write_file / edit_file /
// patch (and PicoBot file_write / file_edit), and the hits of search_files (and PicoBot
// content_search / file_search), parsed from the stored result JSON. Everything here produces
// plain strings; the components render them as text, never as HTML.
import type { ToolCard } from './rows';

const DIFF_TOOLS = new Set(['write_file', 'file_write', 'edit_file', 'file_edit', 'patch']);
const SEARCH_TOOLS = new Set(['search_files', 'content_search', 'file_search']);

/** Diff lines shown before the card offers "show all". */
export const DIFF_COLLAPSED_LINES = 40;
/** Search hits shown before the card offers "show all". */
export const HITS_COLLAPSED = 30;

export type DiffLineKind = 'file' | 'hunk' | 'add' | 'del' | 'context' | 'note';

export interface DiffLine {
  kind: DiffLineKind;
  /** The line without its leading marker (`+`, `-`, space); headers and notes as written. */
  text: string;
  /** Line number in the old file (removed and context lines). */
  oldNo: number | null;
  /** Line number in the new file (added and context lines). */
  newNo: number | null;
}

export interface DiffView {
  kind: 'diff';
  path: string;
  lines: DiffLine[];
  added: number;
  removed: number;
  /** The tool cut the diff (diff_truncated). */
  truncated: boolean;
}

/** A piece of a matched line; `hit` pieces are what the pattern matched. */
export interface Segment {
  text: string;
  hit: boolean;
}

export interface SearchHit {
  lineNumber: number;
  segments: Segment[];
}

export interface SearchGroup {
  path: string;
  hits: SearchHit[];
}

export interface SearchView {
  kind: 'search';
  pattern: string;
  groups: SearchGroup[];
  count: number;
  truncated: boolean;
}

export interface FileListView {
  kind: 'files';
  pattern: string;
  files: { path: string; kind: string }[];
  truncated: boolean;
}

export type FileToolView = DiffView | SearchView | FileListView;

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** Parses a unified diff into numbered lines. Text outside hunks and unknown lines are notes. */
export function parseUnifiedDiff(diff: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let oldNo = 0;
  let newNo = 0;
  let inHunk = false;
  const raw = diff.endsWith('\n') ? diff.slice(0, -1) : diff;
  if (raw === '') return lines;
  for (const line of raw.split('\n')) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      inHunk = true;
      lines.push({ kind: 'hunk', text: line, oldNo: null, newNo: null });
    } else if (!inHunk && (line.startsWith('--- ') || line.startsWith('+++ '))) {
      lines.push({ kind: 'file', text: line, oldNo: null, newNo: null });
    } else if (inHunk && line.startsWith('+')) {
      lines.push({ kind: 'add', text: line.slice(1), oldNo: null, newNo: newNo++ });
    } else if (inHunk && line.startsWith('-')) {
      lines.push({ kind: 'del', text: line.slice(1), oldNo: oldNo++, newNo: null });
    } else if (inHunk && line.startsWith(' ')) {
      lines.push({ kind: 'context', text: line.slice(1), oldNo: oldNo++, newNo: newNo++ });
    } else {
      lines.push({ kind: 'note', text: line, oldNo: null, newNo: null });
    }
  }
  return lines;
}

/** Longest line that gets highlights (longer lines are shown plain). */
const HIGHLIGHT_MAX_LINE = 2000;
/** A quantified group that itself holds a quantifier (`(a+)+`): JavaScript's backtracking
 * engine can take exponential time on these, Rust's cannot, so they are not highlighted. */
const NESTED_QUANTIFIER = /\([^)]*[+*}][^)]*\)[+*{]/;

/** A Rust-regex pattern as a global JavaScript RegExp for highlighting, or null when JavaScript
 * cannot read it or it risks catastrophic backtracking (the hits are then shown without
 * highlights). A leading `(?i)` becomes the `i` flag. */
export function highlighter(pattern: string): RegExp | null {
  if (NESTED_QUANTIFIER.test(pattern)) return null;
  let source = pattern;
  let flags = 'gu';
  const inline = /^\(\?([imsx]+)\)/.exec(source);
  if (inline) {
    if (inline[1].includes('x')) return null;
    for (const f of inline[1]) if (f !== 'x') flags += f;
    source = source.slice(inline[0].length);
  }
  try {
    return new RegExp(source, flags);
  } catch {
    return null;
  }
}

/** Splits `line` into plain and matched pieces. Empty matches are skipped. */
export function highlight(line: string, re: RegExp | null): Segment[] {
  if (!re || line.length > HIGHLIGHT_MAX_LINE) return [{ text: line, hit: false }];
  const segments: Segment[] = [];
  let at = 0;
  for (const m of line.matchAll(re)) {
    const start = m.index ?? 0;
    if (m[0] === '') continue;
    if (start > at) segments.push({ text: line.slice(at, start), hit: false });
    segments.push({ text: m[0], hit: true });
    at = start + m[0].length;
  }
  if (at < line.length || segments.length === 0) segments.push({ text: line.slice(at), hit: false });
  return segments;
}

function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function diffView(result: Record<string, unknown>, args: Record<string, unknown> | null): DiffView | null {
  const diff = asString(result.diff);
  if (diff === null) return null;
  const lines = parseUnifiedDiff(diff);
  return {
    kind: 'diff',
    path: asString(result.path) ?? asString(args?.path) ?? asString(args?.file_path) ?? '',
    lines,
    added: lines.filter((l) => l.kind === 'add').length,
    removed: lines.filter((l) => l.kind === 'del').length,
    truncated: result.diff_truncated === true,
  };
}

function searchView(result: Record<string, unknown>, pattern: string): SearchView | FileListView | null {
  const truncated = result.truncated === true;
  if (Array.isArray(result.matches)) {
    const re = highlighter(pattern);
    const groups: SearchGroup[] = [];
    const byPath = new Map<string, SearchGroup>();
    for (const m of result.matches as unknown[]) {
      if (!m || typeof m !== 'object') continue;
      const hit = m as Record<string, unknown>;
      const path = asString(hit.path);
      const line = asString(hit.line);
      if (path === null || line === null || typeof hit.line_number !== 'number') continue;
      let group = byPath.get(path);
      if (!group) {
        group = { path, hits: [] };
        byPath.set(path, group);
        groups.push(group);
      }
      group.hits.push({ lineNumber: hit.line_number, segments: highlight(line, re) });
    }
    const count = typeof result.count === 'number' ? result.count : groups.reduce((n, g) => n + g.hits.length, 0);
    return { kind: 'search', pattern, groups, count, truncated };
  }
  if (Array.isArray(result.files)) {
    const files = (result.files as unknown[]).flatMap((f) => {
      const entry = f && typeof f === 'object' ? (f as Record<string, unknown>) : {};
      const path = asString(entry.path);
      return path === null ? [] : [{ path, kind: asString(entry.kind) ?? 'file' }];
    });
    return { kind: 'files', pattern, files, truncated };
  }
  return null;
}

/** The file view of a finished, successful file-tool card, or null (the card then shows only
 * its JSON). Tools are recognised by name in every dialect; the result shape decides the rest. */
export function fileToolView(card: ToolCard): FileToolView | null {
  const name = card.call.name;
  if (!card.result || card.result.is_error) return null;
  if (!DIFF_TOOLS.has(name) && !SEARCH_TOOLS.has(name)) return null;
  const result = parseObject(card.result.content);
  if (!result) return null;
  const args = parseObject(card.call.arguments);
  if (DIFF_TOOLS.has(name)) return diffView(result, args);
  return searchView(result, asString(result.pattern) ?? asString(args?.pattern) ?? '');
}
