// What the user opened in the chat — a tool card's details, a long diff, hit list or output
// shown whole — by a key naming it (the chat, the call, the view). Kept outside the components:
// a row the virtual list unmounts when it scrolls away, or rebuilds from the store after its
// turn, shows again what the user left open.
import { SvelteSet } from 'svelte/reactivity';

const keys = new SvelteSet<string>();

/** The key of a tool call's card in a chat, or of one of its parts (a view's index, `proposed`). */
export function openKey(sessionId: string, callId: string, part?: number | 'proposed'): string {
  return part === undefined ? `${sessionId}:${callId}` : `${sessionId}:${callId}:${part}`;
}

export const opened = {
  has(key: string): boolean {
    return keys.has(key);
  },
  toggle(key: string): void {
    if (keys.has(key)) keys.delete(key);
    else keys.add(key);
  },
};
