// Session list helpers: ordering (pinned first, then most recent) and deletes that wait out an
// undo window before they really happen.
import type { Session } from './bindings/Session';

export const UNDO_WINDOW_MS = 5000;

/** Whether `session` is a scheduled job's run (`job:<uuid>`), kept out of the sidebar. */
export function isJobRun(session: Session): boolean {
  return session.id.startsWith('job:');
}

/** Hearth's own kinds of session (`desktop:<uuid>`, `cli:…`, job runs, sub-agents). */
const LOCAL_PREFIXES = ['desktop', 'cli', 'job', 'task'];

/** The channel a chat came in through (`telegram` for `telegram:<chat id>`), or null for
 * Hearth's own chats. */
export function channelOf(session: Session): string | null {
  const prefix = session.id.split(':')[0];
  return session.id.includes(':') && !LOCAL_PREFIXES.includes(prefix) ? prefix : null;
}

/** Pinned sessions first, each group by most recent activity. */
export function sortSessions(sessions: readonly Session[]): Session[] {
  return [...sessions].sort((a, b) => {
    if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
    return b.updated_at - a.updated_at;
  });
}

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * Deletes scheduled for later: `schedule` hides a session now and runs `commit` after the undo
 * window unless `undo` is called first. `flush` commits everything pending at once (on quit).
 */
export class PendingDeletes {
  private readonly pending = new Map<string, { handle: unknown; commit: () => void }>();

  constructor(private readonly timers: Timers = realTimers, private readonly windowMs = UNDO_WINDOW_MS) {}

  schedule(id: string, commit: () => void): void {
    this.undo(id);
    const handle = this.timers.set(() => {
      this.pending.delete(id);
      commit();
    }, this.windowMs);
    this.pending.set(id, { handle, commit });
  }

  /** Cancels a pending delete; returns whether one was pending. */
  undo(id: string): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.timers.clear(entry.handle);
    this.pending.delete(id);
    return true;
  }

  flush(): void {
    for (const [id, entry] of [...this.pending]) {
      this.timers.clear(entry.handle);
      this.pending.delete(id);
      entry.commit();
    }
  }
}

/** Calls `fn` once `ms` after the last call; `cancel` drops a pending call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number, timers: Timers = realTimers) {
  let handle: unknown = null;
  const call = (...args: A) => {
    if (handle !== null) timers.clear(handle);
    handle = timers.set(() => {
      handle = null;
      fn(...args);
    }, ms);
  };
  call.cancel = () => {
    if (handle !== null) timers.clear(handle);
    handle = null;
  };
  return call;
}
