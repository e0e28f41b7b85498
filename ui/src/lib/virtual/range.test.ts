import { describe, expect, it } from 'vitest';
import { atBottom, Heights, scrollTopFor, visibleRange } from './range';

function naiveOffset(values: number[], i: number): number {
  return values.slice(0, i).reduce((a, b) => a + b, 0);
}

describe('Heights', () => {
  it('matches naive prefix sums after random updates', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const values = Array.from({ length: 257 }, () => Math.floor(rand() * 300) + 1);
    const h = new Heights(values);
    for (let k = 0; k < 500; k++) {
      const i = Math.floor(rand() * values.length);
      const v = Math.floor(rand() * 500);
      const delta = h.set(i, v);
      expect(delta).toBe(v - values[i]);
      values[i] = v;
    }
    for (let i = 0; i <= values.length; i += 13) expect(h.offsetOf(i)).toBe(naiveOffset(values, i));
    expect(h.total).toBe(naiveOffset(values, values.length));
  });

  it('finds the item covering an offset', () => {
    const h = new Heights([10, 20, 30]);
    expect([0, 9, 10, 29, 30, 59, 60, 1000, -5].map((o) => h.indexAt(o))).toEqual([0, 0, 1, 1, 2, 2, 2, 2, 0]);
  });

  it('uses measured heights where known and the estimate elsewhere', () => {
    const h = Heights.forKeys(['a', 'b', 'c'], new Map([['b', 200]]), 50);
    expect([h.get(0), h.get(1), h.get(2)]).toEqual([50, 200, 50]);
  });

  it('handles an empty list', () => {
    const h = new Heights([]);
    expect(h.total).toBe(0);
    expect(h.indexAt(100)).toBe(0);
    expect(visibleRange(h, 0, 500, 100)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0 });
  });
});

describe('visibleRange', () => {
  const h = new Heights(Array.from({ length: 10_000 }, () => 100));

  it('renders only the rows near the viewport of a 10,000-row list', () => {
    const r = visibleRange(h, 500_000, 800, 200);
    expect(r.start).toBe(4998);
    expect(r.end).toBe(5011);
    expect(r.end - r.start).toBeLessThan(20);
    expect(r.padTop).toBe(499_800);
    expect(r.padTop + (r.end - r.start) * 100 + r.padBottom).toBe(h.total);
  });

  it('clamps at the top and the bottom', () => {
    expect(visibleRange(h, 0, 800, 200)).toMatchObject({ start: 0, end: 11, padTop: 0 });
    const end = visibleRange(h, h.total - 800, 800, 200);
    expect(end.end).toBe(10_000);
    expect(end.padBottom).toBe(0);
  });

  it('follows variable heights', () => {
    const v = new Heights([1000, 10, 10, 10, 1000]);
    expect(visibleRange(v, 1005, 20, 0)).toMatchObject({ start: 1, end: 4 });
  });
});

describe('scroll helpers', () => {
  it('atBottom allows a little slack', () => {
    expect(atBottom(900, 100, 1000)).toBe(true);
    expect(atBottom(880, 100, 1000)).toBe(true);
    expect(atBottom(800, 100, 1000)).toBe(false);
  });

  it('scrollTopFor clamps the index', () => {
    const v = new Heights([10, 20, 30]);
    expect([scrollTopFor(v, -1), scrollTopFor(v, 2), scrollTopFor(v, 99)]).toEqual([0, 30, 60]);
  });
});
