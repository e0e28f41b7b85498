// The typed `listen` over the generated event table (`bindings/events.ts`, written from
// src-tauri/src/events.rs by `cargo test -p hearth --lib contract`): an event's name and its
// payload's type come from Rust, so renaming either there fails this build.
import { listen } from '@tauri-apps/api/event';
import type { Events } from './bindings/events';

export type { Events };
export type AppEvent = keyof Events;

/** Calls `handler` with the payload of every `event` the app sends; returns the function that
 * stops listening (for `onMount` or `$effect`). Outside the desktop shell nothing arrives. */
export function onEvent<E extends AppEvent>(event: E, handler: (payload: Events[E]) => void): () => void {
  return untilStopped(() => listen<Events[E]>(event, (e) => handler(e.payload)));
}

/** The synchronous stop of a listener that `start` sets up asynchronously: stopped before it
 * was set up, it is stopped once it is; one that cannot be set up (outside Tauri) is ignored. */
export function untilStopped(start: () => Promise<() => void>): () => void {
  let unlisten: (() => void) | null = null;
  let disposed = false;
  let listening: Promise<() => void>;
  try {
    listening = start();
  } catch (e) {
    listening = Promise.reject(e);
  }
  listening
    .then((fn) => (disposed ? fn() : (unlisten = fn)))
    .catch(() => {
      // Not inside the desktop shell (a plain browser, the unit tests): no events.
    });
  return () => {
    disposed = true;
    unlisten?.();
  };
}
