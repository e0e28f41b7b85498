import { describe, expect, it } from 'vitest';
import { newestStoredId, oldestStoredId, olderRows, tailStart } from './paging';
import type { ChatRow } from './rows';

/** Rows as paging sees them: a key, and the stored id the `m<id>` keys carry. */
const row = (key: string) => ({ key, id: key.startsWith('m') ? Number(key.slice(1)) : null }) as ChatRow;
const rows = (...keys: string[]) => keys.map(row);

describe('stored ids', () => {
  it('skip rows that are not stored', () => {
    const r = rows('local1', 'm3', 'm5', 'local2');
    expect(oldestStoredId(r)).toBe(3);
    expect(newestStoredId(r)).toBe(5);
    expect(newestStoredId(r, 2)).toBe(3);
    expect(newestStoredId(r, 1)).toBeNull();
    expect(oldestStoredId(rows('local1'))).toBeNull();
    expect(newestStoredId([])).toBeNull();
  });
});

describe('tailStart', () => {
  it('finds where a newer page begins among the loaded rows', () => {
    expect(tailStart(rows('m1', 'm2', 'm3', 'local1'), rows('m2', 'm3', 'm4'))).toBe(1);
    expect(tailStart(rows('m1', 'm2'), rows('m1', 'm2', 'm3'))).toBe(0);
  });
  it('replaces everything when the page reaches further back, shares nothing, or is empty', () => {
    expect(tailStart(rows('m5', 'm6'), rows('m3', 'm4', 'm5', 'm6'))).toBe(0);
    expect(tailStart(rows('m1', 'm2'), rows('m8', 'm9'))).toBe(0);
    expect(tailStart(rows('m1', 'm2'), [])).toBe(0);
  });
});

describe('olderRows', () => {
  it('keeps an older page whole when it ends before the loaded rows', () => {
    expect(olderRows(rows('m5', 'm6'), rows('m3', 'm4')).map((r) => r.key)).toEqual(['m3', 'm4']);
  });
  it('leaves out rows the chat already shows', () => {
    expect(olderRows(rows('m4', 'm5'), rows('m2', 'm3', 'm4', 'm5')).map((r) => r.key)).toEqual(['m2', 'm3']);
    expect(olderRows([], rows('m1')).map((r) => r.key)).toEqual(['m1']);
  });
});
