// The models folder for the fake backend: `local_models` answers the scenario's models (with the
// folder, the recommendations and this machine's memory), `import_local_model` adds a model named
// after the file (or refuses it with the scenario's error for that path), `remove_local_model`
// deletes one, and `test_connection` of a `local` provider lists the models like the app does.
// Downloads: `start_model_download` lists a running download (or refuses the scenario's source)
// and sends it as a `models://download` event; each `window.__hearth.downloadStep(share)` moves
// the running ones on by that share of the size (or fails one with the scenario's error, once),
// a finished one becoming a model of the folder; pause, resume and cancel change it and say so.
// Installed after `installFakeDesktop`, it wraps `__TAURI_INTERNALS__.invoke` and records calls
// in the same `window.__hearth.calls`. Serialized into the page: it must not use anything from
// outside its own body.
import type { AppError } from '../../src/lib/bindings/AppError';
import type { LocalModel } from '../../src/lib/bindings/LocalModel';
import type { ModelDownload } from '../../src/lib/bindings/ModelDownload';
import type { StartDownloadParams } from '../../src/lib/bindings/StartDownloadParams';
import type { ProviderEntry } from '../../src/lib/bindings/ProviderEntry';
import type { RecommendedModel } from '../../src/lib/bindings/RecommendedModel';
import type { FakeEmit, FakeHandlers, FakeTable } from './fake-ipc';

export interface ModelsScenario {
  localModels?: LocalModel[];
  recommended?: RecommendedModel[];
  /** This machine's memory (default 8 GiB). */
  memoryBytes?: number;
  /** Why `import_local_model` refuses a path. */
  importRefusals?: Record<string, AppError>;
  /** Why `start_model_download` refuses a source. */
  downloadRefusals?: Record<string, AppError>;
  /** The error the download of a file fails with at its first step (once). */
  downloadFailures?: Record<string, AppError>;
}

/** The size of every fake download: 700 MiB. */
export const DOWNLOAD_BYTES = 700 * 1024 * 1024;

export function installFakeModels(scenario: ModelsScenario): void {
  const w = window as unknown as {
    __TAURI_INTERNALS__: { invoke: (cmd: string, args?: Record<string, unknown>) => Promise<unknown> };
    __hearth: {
      calls: { cmd: string; args: Record<string, unknown> }[];
      emit: FakeEmit;
      downloadStep?: (share: number) => void;
    };
  };
  const original = w.__TAURI_INTERNALS__.invoke;
  const folder = '/home/u/.hearth/models';
  const models: LocalModel[] = JSON.parse(JSON.stringify(scenario.localModels ?? []));
  const size = 700 * 1024 * 1024; // DOWNLOAD_BYTES (this body cannot see it)
  const speed = 25 * 1024 * 1024;
  const downloads: ModelDownload[] = [];
  const failures = { ...scenario.downloadFailures };
  const tell = (d: ModelDownload) => w.__hearth.emit('models://download', JSON.parse(JSON.stringify(d)) as ModelDownload);
  const find = (id: unknown) => downloads.find((d) => d.id === id);
  w.__hearth.downloadStep = (share) => {
    for (const d of downloads.filter((x) => x.state === 'running')) {
      const failure = failures[d.file_name];
      if (failure) {
        delete failures[d.file_name];
        Object.assign(d, { state: 'failed', done: 0, bytes_per_second: 0, seconds_left: null, error: failure });
      } else {
        const done = Math.min(size, d.done + Math.round(size * share));
        Object.assign(d, { total: size, done, bytes_per_second: speed, seconds_left: Math.round((size - done) / speed) });
      }
      if (d.done < size) {
        tell(d);
        continue;
      }
      const model = newModel(d.file_name);
      models.push(model);
      downloads.splice(downloads.indexOf(d), 1);
      tell({ ...d, state: 'finished', bytes_per_second: 0, seconds_left: null, model });
    }
  };
  function newModel(file_name: string): LocalModel {
    return {
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
  }

  const handlers: FakeHandlers = {
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
      const model = newModel(path.split('/').pop() ?? path);
      models.push(model);
      return model;
    },
    remove_local_model: (a) => {
      const i = models.findIndex((m) => m.name === a.name);
      if (i < 0) throw { code: 'local_model_missing', params: { name: String(a.name), folder } } satisfies AppError;
      models.splice(i, 1);
      return null;
    },
    model_downloads: () => JSON.parse(JSON.stringify(downloads)),
    start_model_download: (a) => {
      const p = a.params as StartDownloadParams;
      const refusal = scenario.downloadRefusals?.[p.source];
      if (refusal) throw refusal;
      const url = /^https?:/.test(p.source) ? p.source : `https://huggingface.co/${p.source}/resolve/main/${p.file}`;
      const file_name = url.split('/').pop() ?? url;
      if (models.some((m) => m.file_name === file_name)) throw { code: 'local_model_exists', params: { name: file_name, folder } } satisfies AppError;
      if (downloads.some((d) => d.file_name === file_name)) throw { code: 'download_running', params: { file: file_name } } satisfies AppError;
      const id = `d${downloads.length + 1}-${Date.now()}`;
      const d: ModelDownload = { id, url, file_name, state: 'running', done: 0, total: null, bytes_per_second: 0, seconds_left: null, error: null, model: null };
      downloads.push(d);
      tell(d);
      return JSON.parse(JSON.stringify(d));
    },
    pause_model_download: (a) => {
      const d = find(a.id);
      if (d?.state === 'running') tell(Object.assign(d, { state: 'paused', bytes_per_second: 0, seconds_left: null }));
      return null;
    },
    resume_model_download: (a) => {
      const d = find(a.id);
      if (d && d.state !== 'running') tell(Object.assign(d, { state: 'running', error: null }));
      return null;
    },
    cancel_model_download: (a) => {
      const d = find(a.id);
      if (d) {
        downloads.splice(downloads.indexOf(d), 1);
        tell({ ...d, state: 'cancelled' });
      }
      return null;
    },
  };

  w.__TAURI_INTERNALS__.invoke = async (cmd: string, args: Record<string, unknown> = {}) => {
    const local = cmd === 'test_connection' && (args.provider as ProviderEntry).kind === 'local';
    const handler = local ? () => models.filter((m) => !m.problem).map((m) => ({ id: m.name, context_window: m.run_context })) : (handlers as unknown as FakeTable)[cmd];
    if (!handler) return original(cmd, args);
    w.__hearth.calls.push({ cmd, args });
    return handler(args);
  };
}
