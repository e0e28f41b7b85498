import { afterEach, describe, expect, it } from 'vitest';
import { errorText, isAppError } from './errors';
import { setLanguage } from './i18n/index.svelte';

describe('errorText', () => {
  afterEach(() => setLanguage('en'));

  it('translates typed errors with their parameters', () => {
    const busy = { code: 'busy', params: { session_id: 'desktop:1' } } as const;
    expect(errorText(busy)).toBe('A reply is already running in this chat; wait for it or stop it.');
    setLanguage('zh-CN');
    expect(errorText(busy)).toBe('此对话正在回复中；请等待完成或先停止。');
    expect(errorText({ code: 'no_model', params: { provider: 'Ollama' } })).toBe('请在设置中为“Ollama”选择默认模型。');
    expect(errorText({ code: 'no_provider' })).toContain('还没有配置模型服务');
  });

  it('shows untyped errors and unknown codes as they are', () => {
    expect(errorText('plain text')).toBe('plain text');
    expect(errorText(new Error('boom'))).toBe('boom');
    expect(isAppError({ code: 'not_a_code' })).toBe(false);
    expect(errorText({ code: 'not_a_code' })).toBe('{"code":"not_a_code"}');
  });
});
