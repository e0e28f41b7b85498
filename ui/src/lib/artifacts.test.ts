import { describe, expect, it } from 'vitest';
import { artifactsOf, parseDelimited, prettyJsonText } from './artifacts';

describe('artifacts', () => {
  it('finds the artifact parts of a message, in order, and nothing else', () => {
    const first = { type: 'artifact' as const, id: 'art_1', name: 'r.md', size: 9 };
    const second = { type: 'artifact' as const, id: 'art_2', name: 'data.csv', size: 20 };
    expect(
      artifactsOf([first, { type: 'file', name: 'r.md', path: 'artifact:art_1', size: 9 }, { type: 'text', text: 'art_1' }, second]),
    ).toEqual([first, second]);
    expect(artifactsOf([])).toEqual([]);
  });

  it('parses quoted CSV fields and tab-separated rows', () => {
    expect(parseDelimited('a,b\n"x, y","say ""hi"""\n"two\nlines",3\n', ',')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['two\nlines', '3'],
    ]);
    expect(parseDelimited('城市\t人口\n北京\t2189', '\t')).toEqual([['城市', '人口'], ['北京', '2189']]);
  });

  it('pretty-prints JSON and leaves anything else alone', () => {
    expect(prettyJsonText('{"a":[1,2]}')).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}');
    expect(prettyJsonText('{broken')).toBe('{broken');
  });
});
