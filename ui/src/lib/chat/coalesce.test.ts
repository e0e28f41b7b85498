import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent } from '../bindings/EngineEvent';
import { coalesceDeltas, nextFrame } from './coalesce';

const delta = (id: number, text: string): EngineEvent => ({ type: 'text_delta', message_id: id, text });
const started = (id: number): EngineEvent => ({ type: 'assistant_started', message_id: id, model: 'm' });

/** A scheduler whose frames the test runs by hand. */
function manualFrames() {
  const pending: (() => void)[] = [];
  return {
    schedule: (flush: () => void) => void pending.push(flush),
    get scheduled() {
      return pending.length;
    },
    frame() {
      for (const flush of pending.splice(0)) flush();
    },
  };
}

describe('coalesceDeltas', () => {
  it('applies the deltas of one frame as one merged delta, once per frame', () => {
    const frames = manualFrames();
    const applied: EngineEvent[] = [];
    const events = coalesceDeltas((e) => applied.push(e), frames.schedule);
    for (const piece of ['a', 'b', 'c']) events.push(delta(1, piece));
    expect(applied).toEqual([]);
    expect(frames.scheduled).toBe(1);
    frames.frame();
    expect(applied).toEqual([delta(1, 'abc')]);
    events.push(delta(1, 'd'));
    events.push(delta(1, 'e'));
    frames.frame();
    expect(applied).toEqual([delta(1, 'abc'), delta(1, 'de')]);
    frames.frame();
    expect(applied).toHaveLength(2);
  });

  it('keeps deltas of different messages apart and in order', () => {
    const frames = manualFrames();
    const applied: EngineEvent[] = [];
    const events = coalesceDeltas((e) => applied.push(e), frames.schedule);
    events.push(delta(1, 'x'));
    events.push(delta(2, 'y'));
    events.push(delta(2, 'z'));
    events.push(delta(1, 'w'));
    frames.frame();
    expect(applied).toEqual([delta(1, 'x'), delta(2, 'yz'), delta(1, 'w')]);
  });

  it('applies held text before any other event, and that event at once', () => {
    const frames = manualFrames();
    const applied: EngineEvent[] = [];
    const events = coalesceDeltas((e) => applied.push(e), frames.schedule);
    events.push(delta(1, 'he'));
    events.push(delta(1, 'llo'));
    const finished: EngineEvent = { type: 'assistant_finished', message_id: 1, usage: { input_tokens: 1, output_tokens: 2 }, stop_reason: 'end_turn' };
    events.push(finished);
    expect(applied).toEqual([delta(1, 'hello'), finished]);
    events.push(started(2));
    expect(applied.at(-1)).toEqual(started(2));
    frames.frame();
    expect(applied).toHaveLength(3);
  });

  it('flush applies what is held without waiting for a frame', () => {
    const frames = manualFrames();
    const applied: EngineEvent[] = [];
    const events = coalesceDeltas((e) => applied.push(e), frames.schedule);
    events.push(delta(3, 'tail'));
    events.flush();
    expect(applied).toEqual([delta(3, 'tail')]);
    frames.frame();
    expect(applied).toHaveLength(1);
  });

  it('does not change the events it was given', () => {
    const frames = manualFrames();
    const first = delta(1, 'a');
    const events = coalesceDeltas(() => {}, frames.schedule);
    events.push(first);
    events.push(delta(1, 'b'));
    frames.frame();
    expect(first).toEqual(delta(1, 'a'));
  });
});

describe('nextFrame', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('runs at the next animation frame, once', () => {
    vi.useFakeTimers();
    let frame: FrameRequestCallback | null = null;
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => ((frame = cb), 7));
    vi.stubGlobal('cancelAnimationFrame', () => {});
    const flush = vi.fn();
    nextFrame(250)(flush);
    expect(flush).not.toHaveBeenCalled();
    frame!(0);
    expect(flush).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(300);
    expect(flush).toHaveBeenCalledTimes(1);
  });

  it('falls back to a timer when no frame comes (hidden window)', () => {
    vi.useFakeTimers();
    const cancel = vi.fn();
    vi.stubGlobal('requestAnimationFrame', () => 9);
    vi.stubGlobal('cancelAnimationFrame', cancel);
    const flush = vi.fn();
    nextFrame(250)(flush);
    vi.advanceTimersByTime(249);
    expect(flush).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(flush).toHaveBeenCalledTimes(1);
    expect(cancel).toHaveBeenCalledWith(9);
  });
});
