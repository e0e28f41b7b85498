// The artifact and knowledge commands for the fake backend: artifacts by id (their content and
// counts for the side panel, "Save as…" answering with the scenario's path), and a knowledge
// base that, like the app, starts a pass of `passFiles` files when rebuilt or when the knowledge
// settings are saved, sending its progress as `knowledge://progress` events one step at a time
// as the test calls `window.__hearth.indexStep()` (the scan, then each file), and whose search
// answers from the scenario's citations by substring, opening a citation at its
// place for the scenario's `viewers` units. Installed after
// `installFakeBackend`, it wraps `__TAURI_INTERNALS__.invoke` and records calls in the same
// `window.__hearth.calls`. Serialized into the page: it must not use anything from outside its
// own body.
import type { ArtifactView } from '../../src/lib/bindings/ArtifactView';
import type { Citation } from '../../src/lib/bindings/Citation';
import type { KnowledgeStatus } from '../../src/lib/bindings/KnowledgeStatus';
import type { FakeEmit, FakeHandlers, FakeTable } from './fake-ipc';

export interface DocumentsScenario {
  artifacts?: ArtifactView[];
  /** What "Save as…" answers (null: the user cancelled). */
  savedTo?: string | null;
  knowledge?: KnowledgeStatus;
  /** Files a rebuild goes through (its progress advances one per status read). */
  passFiles?: number;
  citations?: Citation[];
  /** The citation units an installed viewer opens at their place (others open the file only). */
  viewers?: string[];
}

export function installFakeDocuments(scenario: DocumentsScenario): void {
  const w = window as unknown as {
    __TAURI_INTERNALS__: { invoke: (cmd: string, args?: Record<string, unknown>) => Promise<unknown> };
    __hearth: {
      calls: { cmd: string; args: Record<string, unknown> }[];
      emit: FakeEmit;
      indexStep?: () => void;
    };
  };
  const original = w.__TAURI_INTERNALS__.invoke;
  const status: KnowledgeStatus = scenario.knowledge ?? {
    folders: ['/home/u/.hearth/workspace/knowledge'],
    files: 0,
    chunks: 0,
    errors: 0,
    last_indexed: null,
    watching: true,
    progress: { running: false, total: 0, done: 0, current: null, last: null },
    file_errors: [],
  };

  const sendProgress = () => w.__hearth.emit('knowledge://progress', { ...status.progress });
  const startPass = () => {
    status.progress = { running: true, total: 0, done: 0, current: null, last: null };
    sendProgress();
  };
  w.__hearth.indexStep = () => {
    const p = status.progress;
    if (!p.running) return;
    if (p.total === 0) p.total = scenario.passFiles ?? 1;
    else p.done += 1;
    if (p.done >= p.total) {
      p.running = false;
      status.files += p.total;
      status.last_indexed = Date.now();
    }
    sendProgress();
  };

  const handlers: FakeHandlers = {
    artifact_view: (a) => {
      const found = (scenario.artifacts ?? []).find((x) => x.id === a.id);
      if (!found) throw `no artifact ${a.id}`;
      return found;
    },
    save_artifact: () => (scenario.savedTo === undefined ? null : scenario.savedTo),
    knowledge_status: () => JSON.parse(JSON.stringify(status)),
    knowledge_rebuild: () => {
      if (!status.progress.running) startPass();
      return true;
    },
    knowledge_search: (a) => {
      const q = String(a.query).toLowerCase();
      return (scenario.citations ?? []).filter((c) => c.snippet.toLowerCase().includes(q)).slice(0, Number(a.limit));
    },
    open_knowledge_file: (a) => ((scenario.viewers ?? []).includes(String(a.unit)) ? 'at_place' : 'no_viewer'),
  };

  w.__TAURI_INTERNALS__.invoke = async (cmd: string, args: Record<string, unknown> = {}) => {
    // Like the app, saved knowledge settings start or stop following the folders and start a
    // pass at once.
    if (cmd === 'save_settings') {
      const knowledge = (args.settings as { knowledge: { watch: boolean; folders: string[] } }).knowledge;
      const folders = knowledge.folders.length ? knowledge.folders : status.folders;
      const changed = knowledge.watch !== status.watching || folders.join('\n') !== status.folders.join('\n');
      status.watching = knowledge.watch;
      status.folders = folders;
      if (changed && !status.progress.running) startPass();
    }
    const handler = (handlers as unknown as FakeTable)[cmd];
    if (!handler) return original(cmd, args);
    w.__hearth.calls.push({ cmd, args });
    return handler(args);
  };
}
