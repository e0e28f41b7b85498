// What the user opened in the chat — a tool card's details, a long diff, hit list or output
// shown whole — by a key naming it (the chat, the call, the view). Kept outside the components:
// a row the virtual list unmounts when it scrolls away, or rebuilds from the store after its
// turn, shows again what the user left open.
import { SvelteSet } from 'svelte/reactivity';

const keys = new SvelteSet<string>();

export const opened = {
  has(key: string): boolean {
    return keys.has(key);
  },
  toggle(key: string): void {
    if (keys.has(key)) keys.delete(key);
    else keys.add(key);
  },
};
