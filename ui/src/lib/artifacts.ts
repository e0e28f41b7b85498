// Artifacts in the chat: the artifact parts artifact_deliver puts in a desktop chat (each shown
// as a card), and the previews of CSV and JSON content.
import type { ContentPart } from './bindings/ContentPart';

export type ArtifactPart = Extract<ContentPart, { type: 'artifact' }>;

/** The artifacts among a message's parts, in order. */
export function artifactsOf(parts: readonly ContentPart[]): ArtifactPart[] {
  return parts.filter((part): part is ArtifactPart => part.type === 'artifact');
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
