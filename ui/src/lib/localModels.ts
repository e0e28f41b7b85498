// Settings → Models and the built-in model: which dropped or picked files are models, the
// provider entry of Hearth's own models, and the ranges of the `[local]` settings.
import type { LocalModel } from './bindings/LocalModel';
import type { LocalSettings } from './bindings/LocalSettings';
import type { ProviderEntry } from './bindings/ProviderEntry';
import type { Settings } from './bindings/Settings';
import { withListedWindow } from './context';
import { addDefaultProvider, freeId } from './providers';

export type { LocalModel };

/** Whether `path` names a GGUF file (what the models folder takes). */
export function isGguf(path: string): boolean {
  return /\.gguf$/i.test(path);
}

/** The model installed for trying Hearth out offline, if the folder has it and it is usable. */
export function builtinModel(models: readonly LocalModel[]): LocalModel | null {
  return models.find((m) => m.builtin && m.problem === null) ?? null;
}

/** The provider entry of Hearth's own models (no address, no key), running `model`. */
export function localProvider(model: string, name: string, existing: readonly ProviderEntry[]): ProviderEntry {
  return { id: freeId('local', existing), name, kind: 'local', base_url: '', default_model: model };
}

/** Settings with a provider of Hearth's own models running `model`, made the default, and the
 * context `model` runs with recorded as its window (as a connection test would record it). */
export function withLocalProvider(settings: Settings, model: LocalModel, name: string): Settings {
  const next = addDefaultProvider(settings, localProvider(model.name, name, settings.providers));
  const listed = [{ id: model.name, context_window: model.run_context }];
  return { ...next, model_context_windows: withListedWindow(settings.model_context_windows, listed, model.name) };
}

/** The allowed range of each `[local]` setting (0 means "automatic" where it is allowed). */
export const LOCAL_LIMITS = {
  idle_minutes: { min: 1, max: 1440 },
  threads: { min: 0, max: 1024 },
  context_length: { min: 0, max: 1_048_576 },
} as const satisfies Record<keyof LocalSettings, { min: number; max: number }>;

/** The whole number typed for `field`, or null when it is not one within its range. */
export function localSetting(field: keyof LocalSettings, typed: string): number | null {
  const text = typed.trim();
  const n = Number(text);
  const { min, max } = LOCAL_LIMITS[field];
  return text !== '' && Number.isInteger(n) && n >= min && n <= max ? n : null;
}
