// Range math for the virtualized message list: item heights in a Fenwick tree (measured where
// known, estimated elsewhere) and the slice of items a viewport needs.

/** Item heights with O(log n) updates, prefix sums and offset lookups. */
export class Heights {
  private readonly tree: Float64Array;
  private readonly values: Float64Array;

  constructor(values: ArrayLike<number>) {
    const n = values.length;
    this.values = Float64Array.from(values);
    this.tree = new Float64Array(n + 1);
    // Linear-time Fenwick build.
    for (let i = 1; i <= n; i++) {
      this.tree[i] += this.values[i - 1];
      const parent = i + (i & -i);
      if (parent <= n) this.tree[parent] += this.tree[i];
    }
  }

  /** Heights for `keys`: the measured height where known, else `estimate`. */
  static forKeys(keys: readonly string[], measured: ReadonlyMap<string, number>, estimate: number): Heights {
    return new Heights(keys.map((k) => measured.get(k) ?? estimate));
  }

  get length(): number {
    return this.values.length;
  }

  get(i: number): number {
    return this.values[i];
  }

  /** Sets item `i`'s height; returns the change. */
  set(i: number, height: number): number {
    const delta = height - this.values[i];
    if (delta === 0) return 0;
    this.values[i] = height;
    for (let j = i + 1; j <= this.values.length; j += j & -j) this.tree[j] += delta;
    return delta;
  }

  /** Sum of the heights of items [0, i). */
  offsetOf(i: number): number {
    let sum = 0;
    for (let j = Math.min(i, this.values.length); j > 0; j -= j & -j) sum += this.tree[j];
    return sum;
  }

  get total(): number {
    return this.offsetOf(this.values.length);
  }

  /** Index of the item covering `offset` (clamped to the list). */
  indexAt(offset: number): number {
    const n = this.values.length;
    if (n === 0) return 0;
    if (offset <= 0) return 0;
    let pos = 0;
    let rest = offset;
    let step = 1;
    while (step * 2 <= n) step *= 2;
    for (; step > 0; step >>= 1) {
      const next = pos + step;
      if (next <= n && this.tree[next] <= rest) {
        pos = next;
        rest -= this.tree[next];
      }
    }
    return Math.min(pos, n - 1);
  }
}

export interface VisibleRange {
  /** First rendered index. */
  start: number;
  /** One past the last rendered index. */
  end: number;
  /** Space above the first rendered item. */
  padTop: number;
  /** Space below the last rendered item. */
  padBottom: number;
}

/** Items to render for a viewport at `scrollTop`, with `overscan` pixels extra on each side. */
export function visibleRange(heights: Heights, scrollTop: number, viewport: number, overscan: number): VisibleRange {
  const n = heights.length;
  if (n === 0) return { start: 0, end: 0, padTop: 0, padBottom: 0 };
  const start = heights.indexAt(Math.max(0, scrollTop - overscan));
  const end = Math.min(n, heights.indexAt(scrollTop + viewport + overscan) + 1);
  const padTop = heights.offsetOf(start);
  return { start, end, padTop, padBottom: heights.total - heights.offsetOf(end) };
}

/** True when the viewport shows the end of the content (within `slack` pixels). */
export function atBottom(scrollTop: number, viewport: number, scrollHeight: number, slack = 32): boolean {
  return scrollHeight - (scrollTop + viewport) <= slack;
}

/** The scrollTop that puts item `index` at the top of the viewport. */
export function scrollTopFor(heights: Heights, index: number): number {
  return heights.offsetOf(Math.max(0, Math.min(index, heights.length)));
}
