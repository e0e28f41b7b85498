import { describe, expect, it } from 'vitest';
import type { LocalModel } from './bindings/LocalModel';
import type { Settings } from './bindings/Settings';
import { builtinModel, isGguf, localProvider, localSetting, withLocalProvider } from './localModels';

function model(name: string, extra: Partial<LocalModel> = {}): LocalModel {
  return {
    name,
    file_name: `${name}.gguf`,
    size_bytes: 1,
    architecture: 'llama',
    quantization: 'Q4_1',
    context_length: 8192,
    run_context: 8192,
    parameters: '135M',
    builtin: false,
    problem: null,
    ...extra,
  };
}

const SMOL = 'SmolLM2-135M-Instruct.Q4_1';

describe('local models', () => {
  it('takes only .gguf files', () => {
    expect(isGguf('/m/Qwen3-1.7B-Q4_K_M.gguf')).toBe(true);
    expect(isGguf('C:\\Models\\X.GGUF')).toBe(true);
    expect(isGguf('/m/readme.txt')).toBe(false);
    expect(isGguf('/m/x.gguf.part')).toBe(false);
  });

  it('finds the built-in model only when it is there and usable', () => {
    expect(builtinModel([model('other'), model(SMOL, { builtin: true })])?.name).toBe(SMOL);
    expect(builtinModel([model('other')])).toBeNull();
    expect(builtinModel([model(SMOL, { builtin: true, problem: 'truncated' })])).toBeNull();
  });

  it('makes a provider with no address or key, numbered when "local" is taken', () => {
    expect(localProvider(SMOL, 'Built-in model', [])).toEqual({
      id: 'local',
      name: 'Built-in model',
      kind: 'local',
      base_url: '',
      default_model: SMOL,
    });
    const taken = [{ id: 'local', name: 'L', kind: 'openai' as const, base_url: 'http://127.0.0.1:8080', default_model: null }];
    expect(localProvider(SMOL, 'Built-in model', taken).id).toBe('local-2');
  });

  it('makes the built-in provider the default, with its model and the context it runs with', () => {
    const settings = { providers: [], default_provider: null, default_model: null, model_context_windows: { other: 4096 } } as unknown as Settings;
    const smol = model(SMOL, { builtin: true, run_context: 4096 });
    const next = withLocalProvider(settings, smol, 'Built-in model');
    expect(next.providers).toHaveLength(1);
    expect(next.default_provider).toBe('local');
    expect(next.default_model).toBe(SMOL);
    expect(next.model_context_windows).toEqual({ other: 4096, [SMOL]: 4096 });
    const stale = { ...settings, default_model: 'gone-model' } as Settings;
    expect(withLocalProvider(stale, smol, 'Built-in model').default_model).toBe(SMOL);
    expect(withLocalProvider(settings, { ...smol, run_context: null }, 'Built-in model').model_context_windows).toEqual({ other: 4096 });
  });

  it('accepts [local] values only as whole numbers in range', () => {
    expect(localSetting('idle_minutes', '10')).toBe(10);
    expect(localSetting('idle_minutes', '0')).toBeNull();
    expect(localSetting('idle_minutes', '1441')).toBeNull();
    expect(localSetting('threads', '0')).toBe(0);
    expect(localSetting('threads', '2.5')).toBeNull();
    expect(localSetting('threads', '')).toBeNull();
    expect(localSetting('context_length', ' 4096 ')).toBe(4096);
    expect(localSetting('context_length', '-1')).toBeNull();
  });
});
