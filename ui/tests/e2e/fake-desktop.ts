// The commands outside chats for the fake backend: settings, rules and API keys, the connection
// test, local model servers found at first run, the audit log, file attachments and the file
// dialog, terminals (watched and typed into) and window parking. Installed after
// `installFakeBackend`, it wraps `__TAURI_INTERNALS__.invoke` like `fake-jobs.ts` and records
// calls in the same `window.__hearth.calls`. Serialized into the page: it must not use anything
// from outside its own body.
import type { AppError } from '../../src/lib/bindings/AppError';
import type { ContentPart } from '../../src/lib/bindings/ContentPart';
import type { AvailableUpdate } from '../../src/lib/bindings/AvailableUpdate';
import type { DetectedServer } from '../../src/lib/bindings/DetectedServer';
import type { KeyStatus } from '../../src/lib/bindings/KeyStatus';
import type { ParkedWindow } from '../../src/lib/bindings/ParkedWindow';
import type { PolicyRule } from '../../src/lib/bindings/PolicyRule';
import type { ProviderEntry } from '../../src/lib/bindings/ProviderEntry';
import type { Settings } from '../../src/lib/bindings/Settings';
import type { StartupProblem } from '../../src/lib/bindings/StartupProblem';
import type { AuditRecord } from '../../src/lib/bindings/AuditRecord';
import type { FakeHandlers, FakeTable } from './fake-ipc';

export interface DesktopScenario {
  keys?: Record<string, string>;
  /** The OS keychain cannot be asked: statuses say "no key stored" with the note, storing fails. */
  keychainUnavailable?: boolean;
  /** Base64 PNG the OS clipboard holds, read by `paste_clipboard_image` (null: none). */
  clipboardImage?: string;
  models?: (string | { id: string; context_window: number | null })[];
  /** What the connection test fails with instead of listing models (when a key is stored too). */
  connectionError?: string | AppError;
  /** Model servers `detect_local_servers` finds (none by default). */
  localServers?: DetectedServer[];
  audit?: AuditRecord[];
  /** What the file dialog returns. */
  dialog?: string | string[] | null;
  /** Open `pty` sessions for `watch_terminal`: the screen, then output chunks, then the end. */
  terminals?: Record<string, { screen: string; output: string[]; closes?: boolean }>;
  /** What `unpark_window` hands the UI (a window built again after its teardown). */
  parked?: ParkedWindow;
  /** Why Hearth could not start, for the start-up error screen (`#startup-problem`). */
  startupProblem?: StartupProblem;
  /** The newer version `check_for_update` offers when updates are configured (none by default). */
  update?: AvailableUpdate;
  /** The browser program `browser_status` reports (null: none found; default /usr/bin/chromium). */
  browserExecutable?: string | null;
  /** What `sandbox_status` reports (default: Landlock and a network namespace). */
  sandbox?: { isolation: string; reason: string | null };
}

export function installFakeDesktop(scenario: DesktopScenario): void {
  type Cb = (data: unknown) => void;
  const w = window as unknown as {
    __TAURI_INTERNALS__: {
      invoke: (cmd: string, args?: Record<string, unknown>) => Promise<unknown>;
      callbacks: Map<number, Cb>;
    };
    __hearth: { calls: { cmd: string; args: Record<string, unknown> }[]; settings: Settings };
  };
  const original = w.__TAURI_INTERNALS__.invoke;
  const settings = w.__hearth.settings;
  const keys: Record<string, string> = { ...(scenario.keys ?? {}) };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let browserRunning = false;
  const chatSandboxes: Record<string, { sandboxed_without_asking: boolean; unsandboxed: boolean }> = {};

  function keyStatus(providerId: string): KeyStatus {
    const key = keys[providerId];
    return {
      provider_id: providerId,
      stored: key !== undefined,
      masked: key === undefined ? null : `••••${key.slice(-4)}`,
      keychain_unavailable: !!scenario.keychainUnavailable,
    };
  }

  function attachment(path: string): ContentPart {
    const name = path.split('/').pop() ?? path;
    if (name.endsWith('.png')) return { type: 'image', mime_type: 'image/png', data: 'iVBORw0KGgo=', name };
    if (name.endsWith('.txt') || name.endsWith('.md')) {
      const ext = name.split('.').pop();
      return { type: 'attached', text: `Attached file \`${name}\`:\n\`\`\`${ext}\nhello\n\`\`\``, source: { kind: 'file', name } };
    }
    if (name.endsWith('.pdf')) {
      const scanned = name.startsWith('scan');
      const text = scanned
        ? `Attached document \`${name}\` (pdf, no text layer; original copied to attachments/${name}):\n[no text layer]`
        : `Attached document \`${name}\` (pdf, pages 2 of 5, cut; original copied to attachments/${name}):\n--- page 1 ---\nhello`;
      const source = scanned
        ? ({ kind: 'document', name, format: 'pdf', unit_kind: 'page', included: 0, count: 0, cut: false, no_text: true } as const)
        : ({ kind: 'document', name, format: 'pdf', unit_kind: 'page', included: 2, count: 5, cut: true, no_text: false } as const);
      return { type: 'attached', text, source };
    }
    if (name.startsWith('missing')) throw `no such file: ${path}`;
    return { type: 'file', name, path: `/workspace/${name}`, size: 4096 };
  }

  /** How to reach the view of each open terminal, for echoing what is typed into it. */
  const liveTerminals: Record<string, (message: unknown) => void> = {};
  const bytes = (text: string) => [...new TextEncoder().encode(text)];

  /** Streams the scenario's terminal for `sessionId` over `channel`; false when there is none. */
  function watchTerminal(sessionId: string, channel: { id: number }): boolean {
    const term = scenario.terminals?.[sessionId];
    if (!term) return false;
    let index = 0;
    const send = (message: unknown) => w.__TAURI_INTERNALS__.callbacks.get(channel.id)?.({ index: index++, message });
    liveTerminals[sessionId] = send;
    void (async () => {
      send({ kind: 'screen', rows: 24, cols: 80, data: term.screen });
      for (const chunk of term.output) {
        await sleep(30);
        send({ kind: 'output', data: bytes(chunk) });
      }
      if (term.closes) {
        delete liveTerminals[sessionId];
        send({ kind: 'closed' });
      }
    })();
    return true;
  }

  /** Like a shell's line editor: echoes text, Enter as a new line, Backspace rubbing out. */
  function writeTerminal(sessionId: string, data: string): number {
    const send = liveTerminals[sessionId];
    if (!send) throw `no terminal session ${sessionId}; open sessions: none`;
    const echo = data.startsWith('\x1b') ? '' : data.replace(/\r/g, '\r\n').replace(/\x7f/g, '\b \b').replace(/\x03/g, '^C\r\n');
    if (echo) send({ kind: 'output', data: bytes(echo) });
    return bytes(data).length;
  }

  const handlers: FakeHandlers = {
    get_settings: () => JSON.parse(JSON.stringify(settings)),
    validate_rules: (a) => {
      // Like `hearth_engine::check_rules`: the first bad rule's index and why.
      (a.rules as PolicyRule[]).forEach((rule, index) => {
        const tool = rule.tool?.trim();
        if (rule.capability != null ? !!tool : !tool) {
          throw { index, message: 'give exactly one of `tool` or `capability`' };
        }
      });
      return null;
    },
    save_settings: (a) => {
      Object.assign(settings, a.settings);
      return null;
    },
    get_key_status: (a) => keyStatus(a.providerId),
    answer_close: () => null,
    set_api_key: (a) => {
      if (scenario.keychainUnavailable) throw 'the OS keychain is not reachable (no result found)';
      keys[a.providerId] = a.key;
      return keyStatus(a.providerId);
    },
    delete_api_key: (a) => {
      if (scenario.keychainUnavailable) throw 'the OS keychain is not reachable (no result found)';
      delete keys[a.providerId];
      return null;
    },
    test_connection: (a) => {
      if (scenario.connectionError) throw scenario.connectionError;
      if (!keys[(a.provider as ProviderEntry).id] && !a.apiKey) throw 'authentication failed: no API key';
      const models = scenario.models ?? ['model-a', 'model-b'];
      return models.map((m) => (typeof m === 'string' ? { id: m, context_window: null } : m));
    },
    detect_local_servers: () => scenario.localServers ?? [],
    list_audit: (a) => (scenario.audit ?? []).slice(0, a.limit),
    prepare_attachment: (a) => attachment(String(a.path)),
    paste_clipboard_image: (a) =>
      scenario.clipboardImage ? { type: 'image', mime_type: 'image/png', data: scenario.clipboardImage, name: a.name } : null,
    attach_bytes: (a) => ({ type: 'image', mime_type: a.mimeType, data: a.dataBase64, name: a.name }),
    app_ready: () => null,
    park_window: () => null,
    unpark_window: () => scenario.parked ?? { session_id: null, draft: null, new_chat: false },
    watch_terminal: (a) => watchTerminal(a.sessionId, a.onEvent),
    write_terminal: (a) => writeTerminal(a.sessionId, a.data),
    'plugin:dialog|open': () => scenario.dialog ?? null,
    startup_problem: () => {
      if (!scenario.startupProblem) throw 'fake backend: the scenario has no start-up problem';
      return scenario.startupProblem;
    },
    open_data_folder: () => null,
    log_ui_error: () => null,
    about: () => ({ version: '0.1.0', updates_enabled: settings.updates.endpoint !== '', endpoint: settings.updates.endpoint }),
    check_for_update: () => {
      if (settings.updates.endpoint === '') throw { code: 'updates_off' } satisfies AppError;
      return { current_version: '0.1.0', available: scenario.update ?? null };
    },
    sandbox_status: () => scenario.sandbox ?? { isolation: 'landlock+netns', reason: null },
    chat_sandbox: (a) => chatSandboxes[String(a.sessionId)] ?? { sandboxed_without_asking: false, unsandboxed: false },
    set_chat_sandbox: (a) => {
      chatSandboxes[String(a.sessionId)] = a.choice as (typeof chatSandboxes)[string];
      return null;
    },
    browser_status: () => {
      const executable = scenario.browserExecutable === undefined ? '/usr/bin/chromium' : scenario.browserExecutable;
      return { executable, source: executable === null ? null : 'install', running: browserRunning };
    },
    open_agent_browser: () => {
      if (scenario.browserExecutable === null) throw 'no browser found';
      browserRunning = true;
      return null;
    },
    clear_browser_data: () => {
      browserRunning = false;
      return null;
    },
    install_update: () => {
      if (!scenario.update) throw { code: 'no_pending_update' } satisfies AppError;
      return null;
    },
  };

  w.__TAURI_INTERNALS__.invoke = async (cmd: string, args: Record<string, unknown> = {}) => {
    const handler = (handlers as unknown as FakeTable)[cmd];
    if (!handler) return original(cmd, args);
    w.__hearth.calls.push({ cmd, args });
    return handler(args);
  };
}
