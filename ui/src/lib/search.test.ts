import { describe, expect, it } from 'vitest';
import { snippetSegments } from './search';

describe('snippetSegments', () => {
  it('splits marked matches from plain text', () => {
    expect(snippetSegments('a <b>cat</b> and <mark>dog</mark>.')).toEqual([
      { text: 'a ', match: false },
      { text: 'cat', match: true },
      { text: ' and ', match: false },
      { text: 'dog', match: true },
      { text: '.', match: false },
    ]);
  });

  it('keeps any other markup as plain text', () => {
    expect(snippetSegments('<img src=x onerror=1> <b>x</mark>')).toEqual([{ text: '<img src=x onerror=1> <b>x</mark>', match: false }]);
    expect(snippetSegments('')).toEqual([]);
  });
});
