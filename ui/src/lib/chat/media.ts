// The bytes of a generated image or audio file, shown from a blob URL.
/** A blob URL over base64 `data` of `mimeType` (the caller revokes it). */
export function blobUrl(data: string, mimeType: string): string {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  return URL.createObjectURL(new Blob([bytes], { type: mimeType }));
}
