import { describe, expect, it } from 'vitest';
import { importanceFromPercent, parseTags } from './memory';

describe('parseTags', () => {
  it('splits on ASCII and Chinese separators and whitespace, lower-cases and de-duplicates', () => {
    expect(parseTags('Coffee, morning，习惯、Coffee  diet')).toEqual(['coffee', 'morning', '习惯', 'diet']);
  });

  it('gives no tags for blank text', () => {
    expect(parseTags('')).toEqual([]);
    expect(parseTags(' ,， ')).toEqual([]);
  });
});

describe('importanceFromPercent', () => {
  it('maps 0–100 to 0–1, clamped, with a default for non-numbers', () => {
    expect(importanceFromPercent(70)).toBe(0.7);
    expect(importanceFromPercent(150)).toBe(1);
    expect(importanceFromPercent(-5)).toBe(0);
    expect(importanceFromPercent(Number.NaN)).toBe(0.5);
  });
});
