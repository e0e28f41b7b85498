import { describe, expect, it } from 'vitest';
import { usageReported } from './usage';

describe('usageReported', () => {
  it('is false for missing usage and for the zeros of a server that reported none', () => {
    expect(usageReported(null)).toBe(false);
    expect(usageReported(undefined)).toBe(false);
    expect(usageReported({ input_tokens: 0, output_tokens: 0 })).toBe(false);
  });

  it('is true once either count is reported', () => {
    expect(usageReported({ input_tokens: 12, output_tokens: 0 })).toBe(true);
    expect(usageReported({ input_tokens: 0, output_tokens: 3 })).toBe(true);
  });
});
