// Applies a turn's events to the chat at most once per animation frame for streamed text: text
// deltas that arrive between two frames are merged into one (per message), so a busy page renders
// the reply once per frame however many IPC messages queued up. Every other event first applies
// the text held back, then itself at once, so the order of events is kept.
import type { EngineEvent } from '../bindings/EngineEvent';

type TextDelta = Extract<EngineEvent, { type: 'text_delta' }>;

/** Runs `flush` once, at the next animation frame, or after `fallbackMs` when frames do not come
 * (a hidden window gets none). */
export type FrameScheduler = (flush: () => void) => void;

export function nextFrame(fallbackMs = 250): FrameScheduler {
  return (flush) => {
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      flush();
    };
    const frame = requestAnimationFrame(once);
    const timer = setTimeout(once, fallbackMs);
  };
}

export interface EventCoalescer {
  /** Takes one event from the turn's channel. */
  push(event: EngineEvent): void;
  /** Applies the text held back now (at the end of a turn). */
  flush(): void;
}

export function coalesceDeltas(apply: (event: EngineEvent) => void, schedule: FrameScheduler = nextFrame()): EventCoalescer {
  let held: TextDelta[] = [];
  let scheduled = false;

  function flush(): void {
    const events = held;
    held = [];
    for (const event of events) apply(event);
  }

  return {
    push(event) {
      if (event.type !== 'text_delta') {
        flush();
        apply(event);
        return;
      }
      const last = held[held.length - 1];
      if (last && last.message_id === event.message_id) held[held.length - 1] = { ...last, text: last.text + event.text };
      else held.push(event);
      if (scheduled) return;
      scheduled = true;
      schedule(() => {
        scheduled = false;
        flush();
      });
    },
    flush,
  };
}
