import { afterEach, describe, expect, it } from 'vitest';
import { appErrorText, errorText, isAppError, shownError } from './errors';
import type { AppError } from './bindings/AppError';
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

describe('a server that wants an API key', () => {
  afterEach(() => setLanguage('en'));

  it('says where the key goes, in both languages', () => {
    const error = {
      code: 'key_required',
      params: { status: 401, provider_id: 'llama-cpp', env_var: 'OPENAI_API_KEY', detail: 'Invalid API Key' },
    } as const;
    expect(errorText(error)).toBe(
      'This server wants an API key (401): add one to provider “llama-cpp” in Settings → Providers, or set HEARTH_API_KEY or OPENAI_API_KEY. The server said: Invalid API Key',
    );
    setLanguage('zh-CN');
    expect(errorText(error)).toBe(
      '此服务器需要 API 密钥（401）：请在“设置 → 服务商”中为服务商“llama-cpp”添加密钥，或设置 HEARTH_API_KEY 或 OPENAI_API_KEY。服务器返回：Invalid API Key',
    );
  });
});

describe('the technical detail of an error', () => {
  it('is kept apart from the sentence, in both languages', () => {
    const error = { code: 'model_unreachable', params: { url: 'http://127.0.0.1:1234', detail: 'error sending request: tcp connect error: Connection refused (os error 111)' } } as AppError;
    setLanguage('zh-CN');
    const zh = shownError(error);
    expect(zh.text).toBe('无法连接到 http://127.0.0.1:1234 的服务：请检查基础 URL 和网络。');
    expect(zh.detail).toContain('Connection refused');
    setLanguage('en');
    expect(shownError(error).text).toBe('Could not reach the provider at http://127.0.0.1:1234: check the base URL and your network.');
    expect(shownError({ code: 'no_provider' } as AppError)).toEqual({ text: appErrorText({ code: 'no_provider' } as AppError), detail: null });
    expect(shownError('plain')).toEqual({ text: 'plain', detail: null });
  });
});
