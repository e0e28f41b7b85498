// Search-hit snippets: the backend may mark matches with <b>…</b> or <mark>…</mark>; the UI shows
// them highlighted without ever treating the snippet as HTML.
export interface Segment {
  text: string;
  match: boolean;
}

const MARK = /<(b|mark)>([\s\S]*?)<\/\1>/g;

export function snippetSegments(snippet: string): Segment[] {
  const segments: Segment[] = [];
  let last = 0;
  for (const m of snippet.matchAll(MARK)) {
    const at = m.index ?? 0;
    if (at > last) segments.push({ text: snippet.slice(last, at), match: false });
    segments.push({ text: m[2], match: true });
    last = at + m[0].length;
  }
  if (last < snippet.length) segments.push({ text: snippet.slice(last), match: false });
  return segments;
}
