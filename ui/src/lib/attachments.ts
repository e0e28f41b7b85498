// Attachment chips: what the composer and sent messages show for each non-body content part, and
// the helpers that turn dropped paths and pasted images into attach requests.
import type { ContentPart } from './bindings/ContentPart';

/** Text files larger than this are not inlined (the backend caps them); shown in the composer. */
export const TEXT_INLINE_CAP_BYTES = 200 * 1024;

/** A part shown as an attachment chip: every kind but the skill a message runs and a delivered
 * artifact (both shown apart), and audio (only tool results carry it, for the model). */
export type AttachmentPart = Exclude<ContentPart, { type: 'skill' } | { type: 'audio' } | { type: 'artifact' }>;

/** Whether `part` is shown as an attachment chip. */
export function isAttachment(part: ContentPart): part is AttachmentPart {
  return part.type !== 'skill' && part.type !== 'audio' && part.type !== 'artifact';
}

export interface Chip {
  /** Unique within the composer. */
  id: string;
  kind: 'image' | 'text' | 'file' | 'document';
  label: string;
  /** Byte size when known. */
  size: number | null;
  /** For a PDF or Office file attached as its text: what went in. */
  document?: DocumentSummary;
  part: AttachmentPart;
}

/** What went in of an attached document's text (from its source, as the backend gives it). */
export interface DocumentSummary {
  name: string;
  format: string;
  /** page, slide, sheet or document. */
  unitKind: string;
  /** Units whose text went in (the last one partly when `cut`). */
  included: number;
  count: number;
  cut: boolean;
  /** A PDF without a text layer (scanned): nothing went in. */
  noText: boolean;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

/** Last path segment, for both `/` and `\` separators. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p.length > 0);
  return parts.length ? parts[parts.length - 1] : path;
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** Bytes of base64 data (without padding overhead). */
export function base64Size(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** The label of typed or pasted text: its first non-empty line, shortened. */
function textLabel(text: string): string {
  const line = text.split('\n').find((l) => l.trim().length > 0)?.trim() ?? '';
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}

/** The chip of attached text, from the source the backend gave beside it. */
function attachedChip(part: Extract<ContentPart, { type: 'attached' }>, id: string): Chip {
  const source = part.source;
  switch (source.kind) {
    case 'file':
      return { id, kind: 'text', label: source.name, size: utf8Length(part.text), part };
    case 'mcp_resource':
      return { id, kind: 'text', label: `${source.server}: ${source.uri}`, size: utf8Length(part.text), part };
    case 'document': {
      const { name, format, included, count, cut } = source;
      const document = { name, format, unitKind: source.unit_kind, included, count, cut, noText: source.no_text };
      return { id, kind: 'document', label: name, size: null, document, part };
    }
  }
}

/** A chip for `part`; `source` (the dropped path or pasted file name) names text parts. */
export function chipFor(part: AttachmentPart, id: string, source?: string): Chip {
  switch (part.type) {
    case 'image':
      return { id, kind: 'image', label: part.name ?? (source ? baseName(source) : 'image'), size: base64Size(part.data), part };
    case 'file':
      return { id, kind: 'file', label: part.name, size: part.size, part };
    case 'text':
      return { id, kind: 'text', label: source ? baseName(source) : textLabel(part.text), size: utf8Length(part.text), part };
    case 'attached':
      return attachedChip(part, id);
  }
}

/** Removes the chip with `id`, keeping the order of the others. */
export function removeChip(chips: readonly Chip[], id: string): Chip[] {
  return chips.filter((c) => c.id !== id);
}

/** The content to send: the typed text (if any) first, then every attachment. */
export function composeContent(text: string, chips: readonly Chip[]): ContentPart[] {
  const parts: ContentPart[] = [];
  if (text.trim().length > 0) parts.push({ type: 'text', text });
  for (const chip of chips) parts.push(chip.part);
  return parts;
}

/** The dialog plugin returns null (cancelled), one path, or many: always a list. */
export function pickedPaths(picked: string | string[] | null): string[] {
  if (picked === null) return [];
  return Array.isArray(picked) ? picked : [picked];
}

/** Base64 of raw bytes, chunked so large images do not overflow the call stack. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

/** A name for a pasted image without one, e.g. `pasted-1.png`. */
export function pastedName(mimeType: string, n: number): string {
  const ext = mimeType.split('/')[1]?.replace('jpeg', 'jpg').replace(/[^a-z0-9]/gi, '') || 'bin';
  return `pasted-${n}.${ext}`;
}

/** The image files of a paste, from `files` or else `items` (browsers differ in which). */
export function pastedImages(data: DataTransfer | null): File[] {
  if (!data) return [];
  const files = [...data.files].filter((f) => f.type.startsWith('image/'));
  if (files.length) return files;
  return [...data.items]
    .filter((item) => item.kind === 'file' && item.type.startsWith('image/'))
    .map((item) => item.getAsFile())
    .filter((file): file is File => file !== null);
}
