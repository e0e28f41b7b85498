import { describe, expect, it } from 'vitest';
import { fraction, openedOnlyKey } from './knowledge';

describe('knowledge', () => {
  it('says which place a citation opened only as a file missed', () => {
    const hit = { file: '/k/a.pdf', unit: 'page', first: 2, last: 2, label: null, citation: 'a.pdf, page 2', snippet: '', score: 1 };
    expect(openedOnlyKey(hit, 'at_place')).toBeNull();
    expect(openedOnlyKey(hit, 'no_viewer')).toBe('knowledge.openedOnly.page');
    expect(openedOnlyKey({ ...hit, unit: 'line' }, 'no_viewer')).toBe('knowledge.openedOnly.line');
    expect(openedOnlyKey({ ...hit, unit: 'slide' }, 'no_place')).toBe('knowledge.openedOnly.slide');
    expect(openedOnlyKey({ ...hit, unit: 'sheet' }, 'no_place')).toBe('knowledge.openedOnly.sheet');
    // A line of text extracted from a DOCX or HTML file: no editor would find it.
    expect(openedOnlyKey({ ...hit, file: '/k/a.docx', unit: 'line' }, 'no_place')).toBe('knowledge.openedOnly.other');
  });

  it('says how far a pass is', () => {
    expect(fraction({ running: true, total: 4, done: 1, current: null, last: null })).toBe(0.25);
    expect(fraction({ running: false, total: 0, done: 0, current: null, last: null })).toBe(1);
  });
});
