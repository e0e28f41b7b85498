import { describe, expect, it } from 'vitest';
import { en } from './en';
import { format, groupThousands, placeholders } from './format';
import { zhCN } from './zh-CN';

describe('translation tables', () => {
  it('have identical keys', () => {
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(en).sort());
  });

  it('use the same placeholders for every key', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(placeholders(zhCN[key]), key).toEqual(placeholders(en[key]));
    }
  });

  it('have no empty strings', () => {
    for (const table of [en, zhCN]) for (const [key, value] of Object.entries(table)) expect(value.trim(), key).not.toBe('');
  });
});

describe('format', () => {
  it('substitutes named placeholders and leaves unknown ones', () => {
    expect(format('Hello {name}, {n} new', { name: 'Ada', n: 3 })).toBe('Hello Ada, 3 new');
    expect(format('{missing} stays', { other: 1 })).toBe('{missing} stays');
    expect(format('no params')).toBe('no params');
  });

  it('does not interpret replacement patterns in values', () => {
    expect(format('x={v}', { v: '$& $1' })).toBe('x=$& $1');
  });
});

describe('groupThousands', () => {
  it('writes whole numbers as both languages’ number formats do', () => {
    for (const n of [0, 7, 999, 1000, 12_345, -4_500, 1_234_567, Number.MAX_SAFE_INTEGER]) {
      expect(groupThousands(n)).toBe(new Intl.NumberFormat('en').format(n));
      expect(groupThousands(n)).toBe(new Intl.NumberFormat('zh-CN').format(n));
    }
  });
});
