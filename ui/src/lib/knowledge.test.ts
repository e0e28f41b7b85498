import { describe, expect, it } from 'vitest';
import { citationsOf, fraction, openedOnlyKey } from './knowledge';
import type { ToolCard } from './chat/rows';

const card = (name: string, content: string, isError = false): ToolCard => ({
  call: { id: 'c', name, arguments: '{}' },
  status: isError ? 'error' : 'ok',
  result: { call_id: 'c', content, is_error: isError, duration_ms: 1 } as ToolCard['result'],
  approval: null,
});

describe('knowledge', () => {
  it('reads the citations of a knowledge_search result only', () => {
    const hit = { file: '/k/a.pdf', unit: 'page', first: 2, last: 2, label: null, citation: 'a.pdf, page 2', snippet: '季度', score: 1 };
    expect(citationsOf(card('knowledge_search', JSON.stringify({ results: [hit] })))).toEqual([hit]);
    expect(citationsOf(card('knowledge_search', '{"error":{}}', true))).toEqual([]);
    expect(citationsOf(card('web_search', JSON.stringify({ results: [hit] })))).toEqual([]);
    expect(citationsOf(card('knowledge_search', 'not json'))).toEqual([]);
  });

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
