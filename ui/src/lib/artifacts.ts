// Artifacts in the chat: which file parts are artifact cards (`artifact:<id>` paths, what
// artifact_deliver puts in a desktop chat), and the previews of CSV and JSON content.
import type { ContentPart } from './bindings/ContentPart';

export const ARTIFACT_PREFIX = 'artifact:';

/** The artifact a part stands for, or null. */
export function artifactOf(part: ContentPart): { id: string; name: string; size: number } | null {
  if (part.type !== 'file' || !part.path.startsWith(ARTIFACT_PREFIX)) return null;
  return { id: part.path.slice(ARTIFACT_PREFIX.length), name: part.name, size: part.size };
}

/** Rows of delimited text (quoted fields, doubled quotes and line breaks inside quotes). */
export function parseDelimited(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) rows.push([...row, field]);
  return rows;
}

/** JSON re-indented, or the text as it is when it does not parse. */
export function prettyJsonText(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
