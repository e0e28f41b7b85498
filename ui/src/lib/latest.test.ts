import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LatestOnly } from './latest';

describe('LatestOnly', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once for a burst of keystrokes, with the last value', async () => {
    const run = vi.fn(async (v: string) => v.toUpperCase());
    const done = vi.fn();
    const latest = new LatestOnly(200, run, done);
    for (const v of ['e', 'ev', 'eve', 'every hour']) latest.push(v);
    await vi.advanceTimersByTimeAsync(250);
    expect(run).toHaveBeenCalledTimes(1);
    expect(run).toHaveBeenCalledWith('every hour');
    expect(done).toHaveBeenCalledWith({ ok: true, value: 'EVERY HOUR' });
  });

  it('drops a slow answer overtaken by a newer value, and reports failures', async () => {
    const resolvers: ((v: string) => void)[] = [];
    const run = (v: string) => (v === 'bad' ? Promise.reject('nope') : new Promise<string>((r) => resolvers.push(r)));
    const done = vi.fn();
    const latest = new LatestOnly(10, run, done);
    latest.push('slow');
    await vi.advanceTimersByTimeAsync(20);
    latest.push('bad');
    await vi.advanceTimersByTimeAsync(20);
    resolvers[0]('late');
    await vi.advanceTimersByTimeAsync(0);
    expect(done.mock.calls).toEqual([[{ ok: false, error: 'nope' }]]);
  });

  it('cancel drops a pending run', async () => {
    const run = vi.fn(async (v: string) => v);
    const latest = new LatestOnly(10, run, vi.fn());
    latest.push('x');
    latest.cancel();
    await vi.advanceTimersByTimeAsync(50);
    expect(run).not.toHaveBeenCalled();
  });
});
