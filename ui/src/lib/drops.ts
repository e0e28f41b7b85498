// Files dragged over and dropped on the window (the webview reports them with their paths; the
// page's own drag events do not carry paths in Tauri).
import { getCurrentWebview, type DragDropEvent } from '@tauri-apps/api/webview';
import { untilStopped } from './events';

export type { DragDropEvent };

/** Calls `handler` for every drag-and-drop event of the window; returns the function that stops
 * listening (for `onMount`). Outside a Tauri webview (a plain browser) nothing is dropped. */
export function listenForDrops(handler: (event: DragDropEvent) => void): () => void {
  return untilStopped(() => getCurrentWebview().onDragDropEvent((event) => handler(event.payload)));
}
