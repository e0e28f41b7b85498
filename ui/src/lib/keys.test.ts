import { describe, expect, it } from 'vitest';
import { distinctKeys, uniqueValues } from './keys';

describe('keys of keyed lists', () => {
  it('keeps an item’s own key and gives each repeat one of its own', () => {
    expect(distinctKeys(['mock', 'gpt-4o', 'mock', 'mock'], (m) => m)).toEqual(['mock', 'gpt-4o', 'mock#2', 'mock#3']);
    expect(distinctKeys([{ id: 7 }, { id: 7 }], (x) => x.id)).toEqual(['7', '7#2']);
    expect(distinctKeys([], (x: string) => x)).toEqual([]);
  });

  it('never makes a key another item already has', () => {
    const keys = distinctKeys(['a', 'a', 'a#2', 'a#2'], (m) => m);
    expect(new Set(keys).size).toBe(4);
    expect(keys.slice(0, 2)).toEqual(['a', 'a#2']);
  });

  it('drops repeated values and keeps the first order', () => {
    expect(uniqueValues(['mock', 'llama3', 'mock'])).toEqual(['mock', 'llama3']);
  });
});
