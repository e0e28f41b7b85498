// The models folder for the fake backend: `local_models` answers the scenario's models (with the
// folder, the recommendations and this machine's memory), `import_local_model` adds a model named
// after the file (or refuses it with the scenario's error for that path), `remove_local_model`
// deletes one, and `test_connection` of a `local` provider lists the models like the app does.
// Installed after `installFakeDesktop`, it wraps `__TAURI_INTERNALS__.invoke` and records calls
// in the same `window.__hearth.calls`. Serialized into the page: it must not use anything from
// outside its own body.
import type { AppError } from '../../src/lib/bindings/AppError';
import type { LocalModel } from '../../src/lib/bindings/LocalModel';
import type { ProviderEntry } from '../../src/lib/bindings/ProviderEntry';
import type { RecommendedModel } from '../../src/lib/bindings/RecommendedModel';

export interface ModelsScenario {
  localModels?: LocalModel[];
  recommended?: RecommendedModel[];
  /** This machine's memory (default 8 GiB). */
  memoryBytes?: number;
  /** Why `import_local_model` refuses a path. */
  importRefusals?: Record<string, AppError>;
}

export function installFakeModels(scenario: ModelsScenario): void {
  const w = window as unknown as {
    __TAURI_INTERNALS__: { invoke: (cmd: string, args?: Record<string, unknown>) => Promise<unknown> };
    __hearth: { calls: { cmd: string; args: Record<string, unknown> }[] };
  };
  const original = w.__TAURI_INTERNALS__.invoke;
  const folder = '/home/u/.hearth/models';
  const models: LocalModel[] = JSON.parse(JSON.stringify(scenario.localModels ?? []));

  const handlers: Record<string, (a: Record<string, unknown>) => unknown> = {
    local_models: () => ({
      folder,
      models: JSON.parse(JSON.stringify(models)),
      recommended: scenario.recommended ?? [],
      memory_bytes: scenario.memoryBytes ?? 8 * 1024 ** 3,
    }),
    import_local_model: (a) => {
      const path = String(a.path);
      const refusal = scenario.importRefusals?.[path];
      if (refusal) throw refusal;
      const file_name = path.split('/').pop() ?? path;
      const model: LocalModel = {
        name: file_name.replace(/\.gguf$/i, ''),
        file_name,
        size_bytes: 700 * 1024 * 1024,
        architecture: 'qwen3',
        quantization: 'Q4_K_M',
        context_length: 40960,
        run_context: 8192,
        parameters: '0.6B',
        builtin: false,
        problem: null,
      };
      models.push(model);
      return model;
    },
    remove_local_model: (a) => {
      const i = models.findIndex((m) => m.name === a.name);
      if (i < 0) throw { code: 'local_model_missing', params: { name: String(a.name), folder } } satisfies AppError;
      models.splice(i, 1);
      return null;
    },
  };

  w.__TAURI_INTERNALS__.invoke = async (cmd: string, args: Record<string, unknown> = {}) => {
    const local = cmd === 'test_connection' && (args.provider as ProviderEntry).kind === 'local';
    const handler = local ? () => models.filter((m) => !m.problem).map((m) => ({ id: m.name, context_window: m.run_context })) : handlers[cmd];
    if (!handler) return original(cmd, args);
    w.__hearth.calls.push({ cmd, args });
    return handler(args);
  };
}
