import { describe, expect, it } from 'vitest';
import { artifactOf, parseDelimited, prettyJsonText } from './artifacts';

describe('artifacts', () => {
  it('recognises artifact cards among file parts', () => {
    expect(artifactOf({ type: 'file', name: 'r.md', path: 'artifact:art_1', size: 9 })).toEqual({ id: 'art_1', name: 'r.md', size: 9 });
    expect(artifactOf({ type: 'file', name: 'r.md', path: '/w/r.md', size: 9 })).toBeNull();
    expect(artifactOf({ type: 'text', text: 'artifact:art_1' })).toBeNull();
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
