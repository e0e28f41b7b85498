// Provider list editing rules: validation, id suggestions, and keeping the default provider
// consistent when providers are added or removed.
import type { DetectedServer } from './bindings/DetectedServer';
import type { ProviderEntry } from './bindings/ProviderEntry';
import type { Settings } from './bindings/Settings';
import type { MessageKey } from './i18n/en';

export { CLOSE_WITHOUT_TRAY, PROVIDER_KINDS, SECURITY_PROFILES, SEARCH_BACKENDS, THEMES, TOOL_PROFILES } from './bindings/choices';
import type { ProviderKind } from './bindings/ProviderKind';
export type { ProviderKind };
/** The label of each provider kind. */
export const PROVIDER_KIND_KEYS = {
  openai: 'settings.kind.openai',
  anthropic: 'settings.kind.anthropic',
  ollama: 'settings.kind.ollama',
  gemini: 'settings.kind.gemini',
  local: 'settings.kind.local',
} as const satisfies Record<ProviderKind, MessageKey>;

/** Key ids that name the web search keys in the keychain, so no provider may use them. */
export const SEARCH_KEY_IDS = ['brave', 'tavily'] as const;

/** A lowercase id from a display name: "My OpenRouter" -> "my-openrouter". */
export function suggestId(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
}

export interface ValidationError {
  key: MessageKey;
  params?: Record<string, string>;
}

/** Why `entry` cannot be saved into `existing` (null when it can). `originalId` is the id of the
 * entry being edited, if any. */
export function validateProvider(
  entry: ProviderEntry,
  existing: readonly ProviderEntry[],
  originalId: string | null,
  fieldName: (field: 'name' | 'id') => string,
): ValidationError | null {
  if (!entry.name.trim()) return { key: 'settings.required', params: { field: fieldName('name') } };
  if (!entry.id.trim()) return { key: 'settings.required', params: { field: fieldName('id') } };
  if (!/^[A-Za-z0-9_-]+$/.test(entry.id)) return { key: 'settings.idInvalid' };
  if ((SEARCH_KEY_IDS as readonly string[]).includes(entry.id)) return { key: 'settings.idReserved', params: { id: entry.id } };
  if (entry.id !== originalId && existing.some((p) => p.id === entry.id)) {
    return { key: 'settings.idTaken', params: { id: entry.id } };
  }
  return null;
}

/** Settings with `entry` added, or replacing the provider `originalId`. The first provider
 * becomes the default (with its default model). */
export function upsertProvider(settings: Settings, entry: ProviderEntry, originalId: string | null): Settings {
  const clean: ProviderEntry = {
    ...entry,
    name: entry.name.trim(),
    base_url: entry.base_url.trim(),
    default_model: entry.default_model?.trim() || null,
  };
  const index = originalId === null ? -1 : settings.providers.findIndex((p) => p.id === originalId);
  const providers = [...settings.providers];
  if (index >= 0) providers[index] = clean;
  else providers.push(clean);
  let { default_provider, default_model } = settings;
  if (default_provider === null || default_provider === originalId) {
    default_provider = clean.id;
    default_model = default_model ?? clean.default_model;
  }
  return { ...settings, providers, default_provider, default_model };
}

/** The provider a detected local server becomes: its suggested id (numbered when taken), no
 * key, its first model as the default. */
export function detectedProvider(server: DetectedServer, existing: readonly ProviderEntry[]): ProviderEntry {
  const id = freeId(server.id, existing);
  return { id, name: server.name, kind: server.kind, base_url: server.base_url, default_model: server.models[0] ?? null };
}

/** `base`, numbered (`base-2`, `base-3`…) when a provider already has that id. */
export function freeId(base: string, existing: readonly ProviderEntry[]): string {
  const taken = new Set(existing.map((p) => p.id));
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

/** Settings with `entry` added as the default provider, with its default model. */
export function addDefaultProvider(settings: Settings, entry: ProviderEntry): Settings {
  const next = upsertProvider(settings, entry, null);
  return { ...next, default_provider: entry.id, default_model: entry.default_model };
}

/** Whether a provider works without an API key: Ollama, Hearth's own models, and any server on
 * this computer (LM Studio, llama.cpp, vLLM on a loopback address). */
export function keyOptional(provider: ProviderEntry): boolean {
  if (provider.kind === 'ollama' || provider.kind === 'local') return true;
  try {
    const host = new URL(provider.base_url).hostname;
    return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
  } catch {
    return false;
  }
}

/** Settings without provider `id`; the default moves to the first remaining provider. */
export function removeProvider(settings: Settings, id: string): Settings {
  const providers = settings.providers.filter((p) => p.id !== id);
  if (settings.default_provider !== id) return { ...settings, providers };
  const next = providers[0] ?? null;
  return { ...settings, providers, default_provider: next?.id ?? null, default_model: next?.default_model ?? null };
}

/** A positive whole number from an input, or null. */
export function positiveInt(value: string): number | null {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** The allowed local hosts typed one per line (or separated by commas or spaces), trimmed,
 * blanks and repeats dropped. */
export function parseHostList(text: string): string[] {
  const hosts = text.split(/[\s,]+/).map((h) => h.trim()).filter((h) => h.length > 0);
  return [...new Set(hosts)];
}
