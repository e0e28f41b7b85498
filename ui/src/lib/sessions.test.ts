import { describe, expect, it } from 'vitest';
import type { Session } from './bindings/Session';
import { debounce, isJobRun, PendingDeletes, sortSessions, type Timers } from './sessions';

function session(id: string, pinned: boolean, updated_at: number): Session {
  return { id, title: id, model: null, workspace: null, tool_profile: 'coding', pinned, message_count: 0, created_at: 0, updated_at };
}

/** Timers driven by hand: `advance(ms)` runs what is due. */
function fakeTimers() {
  let now = 0;
  let next = 1;
  const queue = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    set: (fn, ms) => {
      const id = next++;
      queue.set(id, { at: now + ms, fn });
      return id;
    },
    clear: (h) => void queue.delete(h as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, t] of [...queue].sort((a, b) => a[1].at - b[1].at)) {
      if (t.at <= now) {
        queue.delete(id);
        t.fn();
      }
    }
  };
  return { timers, advance, pending: () => queue.size };
}

describe('isJobRun', () => {
  it('tells the sessions of job runs from chats', () => {
    expect(isJobRun({ id: 'job:1' } as Session)).toBe(true);
    expect(isJobRun({ id: 'desktop:1' } as Session)).toBe(false);
    expect(isJobRun({ id: 'cli:job:1' } as Session)).toBe(false);
  });
});

describe('sortSessions', () => {
  it('puts pinned first, each group newest first, without mutating the input', () => {
    const input = [session('a', false, 1), session('b', true, 2), session('c', false, 3), session('d', true, 4)];
    expect(sortSessions(input).map((s) => s.id)).toEqual(['d', 'b', 'c', 'a']);
    expect(input.map((s) => s.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('PendingDeletes', () => {
  it('commits after the undo window', () => {
    const { timers, advance } = fakeTimers();
    const deletes = new PendingDeletes(timers, 5000);
    const done: string[] = [];
    deletes.schedule('s1', () => done.push('s1'));
    advance(4999);
    expect(done).toEqual([]);
    advance(1);
    expect(done).toEqual(['s1']);
    expect(deletes.undo('s1')).toBe(false);
  });

  it('never commits an undone delete', () => {
    const { timers, advance, pending } = fakeTimers();
    const deletes = new PendingDeletes(timers, 5000);
    const done: string[] = [];
    deletes.schedule('s1', () => done.push('s1'));
    expect(deletes.undo('s1')).toBe(true);
    expect(deletes.undo('s1')).toBe(false);
    advance(10_000);
    expect(done).toEqual([]);
    expect(pending()).toBe(0);
  });

  it('restarts the window when scheduled twice, and flush commits at once', () => {
    const { timers, advance } = fakeTimers();
    const deletes = new PendingDeletes(timers, 5000);
    const done: string[] = [];
    deletes.schedule('a', () => done.push('a'));
    advance(3000);
    deletes.schedule('a', () => done.push('a2'));
    deletes.schedule('b', () => done.push('b'));
    advance(3000);
    expect(done).toEqual([]);
    deletes.flush();
    expect(done.sort()).toEqual(['a2', 'b']);
    advance(10_000);
    expect(done).toHaveLength(2);
  });
});

describe('debounce', () => {
  it('calls once with the last arguments after the quiet period', () => {
    const { timers, advance } = fakeTimers();
    const calls: string[] = [];
    const d = debounce((q: string) => calls.push(q), 250, timers);
    d('a');
    advance(100);
    d('ab');
    advance(249);
    expect(calls).toEqual([]);
    advance(1);
    expect(calls).toEqual(['ab']);
  });

  it('can be cancelled', () => {
    const { timers, advance } = fakeTimers();
    const calls: string[] = [];
    const d = debounce((q: string) => calls.push(q), 250, timers);
    d('x');
    d.cancel();
    advance(1000);
    expect(calls).toEqual([]);
  });
});
