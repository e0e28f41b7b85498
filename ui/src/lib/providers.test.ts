import { describe, expect, it } from 'vitest';
import type { ProviderEntry } from './bindings/ProviderEntry';
import type { Settings } from './bindings/Settings';
import type { DetectedServer } from './bindings/DetectedServer';
import { detectedProvider, keyOptional, parseHostList, positiveInt, removeProvider, suggestId, upsertProvider, validateProvider } from './providers';

const base: Settings = {
  providers: [],
  default_provider: null,
  default_model: null,
  tool_profile: 'coding',
  security_profile: 'personal_cli',
  language: 'en',
  theme: 'system',
  start_at_login: false,
  close_without_tray: 'ask',
  max_iterations: 50,
  context_window: 128000,
  model_context_windows: {},
  allow_local_hosts: [],
  search: { searxng_url: '' },
  jobs_paused: false,
  rules: [],
  security: { sandbox: 'workspace-write', network: false, writable_roots: [], denied_paths: [], grants: [] },
  updates: { endpoint: '', pubkey: '' },
  mcp_servers: [],
  agents: [],
  subagents: { max_running: 3, max_per_turn: 12, max_depth: 1, timeout_secs: 600 },
  media: { vision_model: '', image: { base_url: '', model: '' }, speech: { backend: 'local', voice: '', base_url: '', model: '' } },
  browser: { executable: '', visible: false, idle_minutes: 10, cdp_url: '' },
  channels: [],
  artifacts: { allowed_extensions: ['md'], max_text_segments: 20 },
  knowledge: { folders: [], watch: true },
  local: { idle_minutes: 10, threads: 0, context_length: 0 },
};
const entry = (id: string, model: string | null = null): ProviderEntry => ({ id, name: id.toUpperCase(), kind: 'openai', base_url: '', default_model: model });
const field = (f: string) => f;

describe('provider rules', () => {
  it('suggests ids from names', () => {
    expect(suggestId('My OpenRouter!')).toBe('my-openrouter');
    expect(suggestId('  ')).toBe('');
    expect(suggestId('通义 Qwen')).toBe('qwen');
  });

  it('validates required fields, id format and uniqueness', () => {
    expect(validateProvider({ ...entry('a'), name: ' ' }, [], null, field)).toEqual({ key: 'settings.required', params: { field: 'name' } });
    expect(validateProvider({ ...entry(''), name: 'x' }, [], null, field)?.key).toBe('settings.required');
    expect(validateProvider(entry('bad id'), [], null, field)?.key).toBe('settings.idInvalid');
    expect(validateProvider(entry('a'), [entry('a')], null, field)?.key).toBe('settings.idTaken');
    expect(validateProvider(entry('a'), [entry('a')], 'a', field)).toBeNull();
  });

  it('makes the first provider the default with its model', () => {
    const s = upsertProvider(base, { ...entry('a', ' gpt-x '), base_url: ' http://h ' }, null);
    expect(s.providers).toEqual([{ id: 'a', name: 'A', kind: 'openai', base_url: 'http://h', default_model: 'gpt-x' }]);
    expect([s.default_provider, s.default_model]).toEqual(['a', 'gpt-x']);
    const s2 = upsertProvider(s, entry('b', 'm-b'), null);
    expect(s2.default_provider).toBe('a');
    expect(s2.providers).toHaveLength(2);
  });

  it('replaces an edited provider in place', () => {
    const s = upsertProvider(upsertProvider(base, entry('a'), null), entry('b'), null);
    const edited = upsertProvider(s, { ...entry('b'), name: 'Renamed' }, 'b');
    expect(edited.providers.map((p) => p.name)).toEqual(['A', 'Renamed']);
  });

  it('moves the default when its provider is removed', () => {
    const s = upsertProvider(upsertProvider(base, entry('a', 'ma'), null), entry('b', 'mb'), null);
    const r = removeProvider(s, 'a');
    expect([r.default_provider, r.default_model]).toEqual(['b', 'mb']);
    const none = removeProvider(r, 'b');
    expect([none.default_provider, none.default_model, none.providers]).toEqual([null, null, []]);
    expect(removeProvider(s, 'b').default_provider).toBe('a');
  });

  it('accepts only positive whole numbers', () => {
    expect(['5', '0', '-1', '2.5', 'x', ''].map(positiveInt)).toEqual([5, null, null, null, null, null]);
  });

  it('refuses provider ids that name the web search keys', () => {
    expect(validateProvider({ ...entry('brave'), name: 'B' }, [], null, field)).toEqual({ key: 'settings.idReserved', params: { id: 'brave' } });
    expect(validateProvider({ ...entry('tavily'), name: 'T' }, [], null, field)?.key).toBe('settings.idReserved');
    expect(validateProvider({ ...entry('brave2'), name: 'B' }, [], null, field)).toBeNull();
  });

  it('reads the allowed local hosts from free text', () => {
    expect(parseHostList(' 127.0.0.1:11434\n\n[::1]:8080, searx.lan  127.0.0.1:11434 ')).toEqual(['127.0.0.1:11434', '[::1]:8080', 'searx.lan']);
    expect(parseHostList('  \n ,')).toEqual([]);
  });
});

describe('detectedProvider', () => {
  const lmStudio: DetectedServer = {
    name: 'LM Studio',
    id: 'lm-studio',
    kind: 'openai',
    address: '127.0.0.1:1234',
    base_url: 'http://127.0.0.1:1234/v1',
    models: ['qwen/qwen3-8b', 'google/gemma-3-4b'],
  };

  it('becomes a keyless provider with its first model as the default', () => {
    expect(detectedProvider(lmStudio, [])).toEqual({
      id: 'lm-studio',
      name: 'LM Studio',
      kind: 'openai',
      base_url: 'http://127.0.0.1:1234/v1',
      default_model: 'qwen/qwen3-8b',
    });
  });

  it('takes a free id and has no default model when the server lists none', () => {
    const taken = [detectedProvider(lmStudio, []), { ...detectedProvider(lmStudio, []), id: 'lm-studio-2' }];
    const entry = detectedProvider({ ...lmStudio, models: [] }, taken);
    expect(entry.id).toBe('lm-studio-3');
    expect(entry.default_model).toBeNull();
  });
});

describe('keyOptional', () => {
  const entry = (kind: ProviderEntry['kind'], base_url: string): ProviderEntry => ({ id: 'p', name: 'P', kind, base_url, default_model: null });

  it('holds for Ollama, Hearth’s own models and servers on a loopback address', () => {
    expect(keyOptional(entry('ollama', ''))).toBe(true);
    expect(keyOptional(entry('local', ''))).toBe(true);
    expect(keyOptional(entry('openai', 'http://127.0.0.1:1234/v1'))).toBe(true);
    expect(keyOptional(entry('openai', 'http://localhost:8080/v1'))).toBe(true);
    expect(keyOptional(entry('openai', 'http://[::1]:8000/v1'))).toBe(true);
  });

  it('does not hold for remote servers, the default URL or a URL that does not parse', () => {
    expect(keyOptional(entry('openai', 'https://openrouter.ai/api/v1'))).toBe(false);
    expect(keyOptional(entry('anthropic', ''))).toBe(false);
    expect(keyOptional(entry('openai', 'http://127.example.com/v1'))).toBe(false);
  });
});
