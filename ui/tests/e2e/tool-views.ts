// Typed tool views for scripted turns, as the engine builds them from a call and its result
// (`hearth-tools`' views, unit-tested there): small constructors so fixtures stay readable.
import type { DiffLine } from '../../src/lib/bindings/DiffLine';
import type { LineSegment } from '../../src/lib/bindings/LineSegment';
import type { SearchGroup } from '../../src/lib/bindings/SearchGroup';
import type { ToolView } from '../../src/lib/bindings/ToolView';

export const fileHeader = (text: string): DiffLine => ({ kind: 'file', text, old_no: null, new_no: null });
export const hunk = (text: string): DiffLine => ({ kind: 'hunk', text, old_no: null, new_no: null });
export const add = (text: string, newNo: number | null = null): DiffLine => ({ kind: 'add', text, old_no: null, new_no: newNo });
export const del = (text: string, oldNo: number | null = null): DiffLine => ({ kind: 'del', text, old_no: oldNo, new_no: null });
export const same = (text: string, oldNo: number, newNo: number): DiffLine => ({ kind: 'context', text, old_no: oldNo, new_no: newNo });

/** A diff view of `lines` (its counts from them). */
export function diff(path: string, lines: DiffLine[], truncated = false): ToolView {
  const count = (kind: DiffLine['kind']) => lines.filter((l) => l.kind === kind).length;
  return { kind: 'diff', path, lines, added: count('add'), removed: count('del'), truncated };
}

/** A matched line's pieces: strings plain, one-element arrays matched (`['al', ['pha']]`). */
export function pieces(...parts: (string | [string])[]): LineSegment[] {
  return parts.map((p) => (typeof p === 'string' ? { text: p, hit: false } : { text: p[0], hit: true }));
}

/** Search hits: groups as `[path, [line number, pieces][]]`. */
export function hits(pattern: string, groups: [string, [number, LineSegment[]][]][], truncated = false): ToolView {
  const grouped: SearchGroup[] = groups.map(([path, lines]) => ({ path, hits: lines.map(([line_number, segments]) => ({ line_number, segments })) }));
  const count = grouped.reduce((n, g) => n + g.hits.length, 0);
  return { kind: 'search_hits', pattern, groups: grouped, count, truncated };
}

/** Files a glob found, as `[path, kind]`. */
export function found(pattern: string, files: [string, string][], truncated = false): ToolView {
  return { kind: 'file_list', pattern, files: files.map(([path, kind]) => ({ path, kind })), truncated };
}
