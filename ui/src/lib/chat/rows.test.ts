import { describe, expect, it } from 'vitest';
import { chatUsage, prettyJson, splitContent, type ChatRow } from './rows';

describe('prettyJson', () => {
  it('indents JSON', () => {
    expect(prettyJson('{"a":1,"b":[true,"x y"]}')).toBe('{\n  "a": 1,\n  "b": [\n    true,\n    "x y"\n  ]\n}');
  });

  it('returns non-JSON text unchanged', () => {
    expect(prettyJson('{not json')).toBe('{not json');
    expect(prettyJson('')).toBe('');
  });

  it('shows the raw text when a round trip would change what the model sent', () => {
    const dup = '{"path":"safe.txt","path":"/etc/passwd"}';
    expect(prettyJson(dup)).toBe(dup);
    const big = '{"n":12345678901234567890}';
    expect(prettyJson(big)).toBe(big);
  });

  it('keeps whitespace inside strings while judging the round trip', () => {
    expect(prettyJson('{ "cmd" : "ls  -la\\n" }')).toBe('{\n  "cmd": "ls  -la\\n"\n}');
  });
});

describe('splitContent', () => {
  it('takes the first text part as the body and the rest as attachments', () => {
    const { text, attachments } = splitContent([
      { type: 'image', mime_type: 'image/png', data: 'AA==' },
      { type: 'text', text: 'body' },
      { type: 'text', text: 'attached file text' },
    ]);
    expect(text).toBe('body');
    expect(attachments.map((p) => p.type)).toEqual(['image', 'text']);
  });

  it('handles content without text', () => {
    expect(splitContent([])).toEqual({ text: '', attachments: [] });
  });
});

describe('chatUsage', () => {
  it('adds up the usage of every reply', () => {
    const rows = [{ usage: { input_tokens: 3, output_tokens: 4 } }, { usage: null }, { usage: { input_tokens: 10, output_tokens: 1 } }] as ChatRow[];
    expect(chatUsage(rows)).toEqual({ input_tokens: 13, output_tokens: 5 });
  });
});
