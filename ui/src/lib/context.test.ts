import { describe, expect, it } from 'vitest';
import type { Settings } from './bindings/Settings';
import { contextWindowOf, estimateTokens, IMAGE_TOKENS, messageTokens, tooLong, withListedWindow } from './context';
// The cases the Rust `estimate_tokens` is tested on (crates/protocol/tests/token_estimates.rs).
import tokenCases from '../../../crates/protocol/tests/token_estimates.json';

const settings = { context_window: 128_000, model_context_windows: { 'qwen3:8b': 8192, broken: 0 } } as unknown as Settings;

describe('context windows', () => {
  it('a model has its own window, else the default', () => {
    expect(contextWindowOf(settings, 'qwen3:8b')).toBe(8192);
    expect(contextWindowOf(settings, 'other')).toBe(128_000);
    expect(contextWindowOf(settings, 'broken')).toBe(128_000);
    expect(contextWindowOf(settings, null)).toBe(128_000);
  });

  it('counts CJK characters one each and other text by fours, images at a flat rate', () => {
    expect(estimateTokens('abcdefgh')).toBe(2);
    expect(estimateTokens('喝绿茶')).toBe(3);
    expect(messageTokens([{ type: 'text', text: 'abcd' }, { type: 'image', mime_type: 'image/png', data: '' }])).toBe(1 + IMAGE_TOKENS);
  });

  it('counts tokens as the engine does', () => {
    expect(tokenCases.length).toBeGreaterThan(20);
    for (const { text, tokens, about } of tokenCases) expect(estimateTokens(text), about).toBe(tokens);
  });

  it('a message over three quarters of the window will not fit', () => {
    expect(tooLong(6_145, 8192)).toBe(true);
    expect(tooLong(6_144, 8192)).toBe(false);
  });

  it('records the window a provider listed for the chosen model', () => {
    const listed = [{ id: 'a', context_window: 4096 }, { id: 'b', context_window: null }];
    expect(withListedWindow({}, listed, 'a')).toEqual({ a: 4096 });
    expect(withListedWindow({ x: 1 }, listed, 'b')).toEqual({ x: 1 });
    expect(withListedWindow({}, null, 'a')).toEqual({});
  });
});
