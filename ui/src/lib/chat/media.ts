// The generated image or audio a tool card shows: parsed from the stored result JSON of
// image_generate and text_to_speech (a path in the chat's workspace and its media type).
import type { ToolCard } from './rows';

const MEDIA_TOOLS = new Set(['image_generate', 'text_to_speech']);

export interface MediaView {
  kind: 'image' | 'audio';
  /** Relative to the chat's workspace. */
  path: string;
  mimeType: string;
}

/** What `card` shows, or null when it is not a finished media call. */
export function mediaView(card: ToolCard): MediaView | null {
  if (!MEDIA_TOOLS.has(card.call.name) || !card.result || card.result.is_error) return null;
  let value: unknown;
  try {
    value = JSON.parse(card.result.content);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { path, mime_type: mimeType } = value as Record<string, unknown>;
  if (typeof path !== 'string' || typeof mimeType !== 'string') return null;
  if (mimeType.startsWith('image/')) return { kind: 'image', path, mimeType };
  if (mimeType.startsWith('audio/')) return { kind: 'audio', path, mimeType };
  return null;
}

/** A blob URL over base64 `data` of `mimeType` (the caller revokes it). */
export function blobUrl(data: string, mimeType: string): string {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  return URL.createObjectURL(new Blob([bytes], { type: mimeType }));
}
