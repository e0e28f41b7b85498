import { describe, expect, it } from 'vitest';
import { translatedError } from './errors';
import { en } from './i18n/en';
import { format } from './i18n/format';
import { zhCN } from './i18n/zh-CN';

// `LlmError::KeyRequired`'s message as the engine writes it (crates/llm/src/error.rs).
const keyRequired =
  "this server wants an API key (401): add one to provider 'llama-cpp' in Settings → Providers, or run `hearth-cli keys set llama-cpp`, or set HEARTH_API_KEY or OPENAI_API_KEY: Invalid API Key";

describe('translatedError', () => {
  it('reads the provider, status, variable and detail out of a key-required error', () => {
    expect(translatedError(keyRequired)).toEqual({
      key: 'errors.keyRequired',
      params: { status: '401', provider: 'llama-cpp', envVar: 'OPENAI_API_KEY', detail: 'Invalid API Key' },
    });
  });

  it('renders it in both languages', () => {
    const { key, params } = translatedError(keyRequired)!;
    expect(format(en[key], params)).toBe(
      'This server wants an API key (401): add one to provider “llama-cpp” in Settings → Providers, or set HEARTH_API_KEY or OPENAI_API_KEY. The server said: Invalid API Key',
    );
    expect(format(zhCN[key], params)).toBe(
      '此服务器需要 API 密钥（401）：请在“设置 → 服务商”中为服务商“llama-cpp”添加密钥，或设置 HEARTH_API_KEY 或 OPENAI_API_KEY。服务器返回：Invalid API Key',
    );
  });

  it('leaves other errors alone', () => {
    expect(translatedError('authentication failed (401): check the API key for this provider')).toBeNull();
    expect(translatedError('could not reach the provider at http://127.0.0.1:8080/v1')).toBeNull();
  });
});
