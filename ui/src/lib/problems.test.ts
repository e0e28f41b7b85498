import { describe, expect, it } from 'vitest';
import { problemText } from './problems';

describe('the text of a failed part', () => {
  it('names the error and its message, and adds the stack for the log', () => {
    const error = new TypeError("Cannot read properties of null (reading 'vision_model')");
    expect(problemText(error)).toBe("TypeError: Cannot read properties of null (reading 'vision_model')");
    const logged = problemText(error, true).split('\n');
    expect(logged[0]).toBe(problemText(error));
    expect(logged.length).toBeGreaterThan(1);
    expect(logged.slice(1).every((line) => /^\s*at /.test(line))).toBe(true);
  });

  it('reads a backend error in the UI language and a thrown string as it is', () => {
    expect(problemText({ code: 'other', params: { message: 'boom' } })).toContain('boom');
    expect(problemText('plain')).toBe('plain');
  });
});
