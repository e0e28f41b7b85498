// A scripted stand-in for the Rust backend, installed into the page before the app boots. It
// speaks the same IPC shape as `@tauri-apps/api/mocks` mockIPC (`__TAURI_INTERNALS__.invoke`,
// `transformCallback`, Channel messages `{index, message}` / `{index, end}`), keeps sessions and
// messages in memory like the store would (shared as `window.__hearth.store` with the fakes
// installed after it), and records every call in `window.__hearth.calls`. The scripted turns are
// in `fake-turns.ts`, the commands outside chats in `fake-desktop.ts`. `installFakeBackend` is
// serialized into the page: it must not use anything from outside its own body.
import type { AppError } from '../../src/lib/bindings/AppError';
import type { Message } from '../../src/lib/bindings/Message';
import type { Session } from '../../src/lib/bindings/Session';
import type { Settings } from '../../src/lib/bindings/Settings';
import type { FakeEmit, FakeHandlers, FakeTable } from './fake-ipc';
import type { TurnsScenario } from './fake-turns';

export type { FakeForm, FakeTool, Step } from './fake-turns';

export interface Scenario extends TurnsScenario {
  settings?: Partial<Settings>;
  sessions?: Session[];
  messages?: Record<string, Message[]>;
  /** Generates `count` alternating user/assistant messages in session `sessionId`. */
  bulk?: { sessionId: string; count: number };
  /** Milliseconds `list_message_page` takes for these sessions (default: answers at once). */
  slowPages?: Record<string, number>;
  /** What `read_workspace_media` answers, by workspace path (others are refused). */
  media?: Record<string, { mime_type: string; data_base64: string }>;
}

export interface Call {
  cmd: string;
  args: Record<string, unknown>;
}

/** The store `installFakeBackend` keeps, for the fakes installed after it. */
export interface FakeStore {
  /** The settings turns and new sessions follow; `fake-desktop.ts` reads and saves them. */
  settings: Settings;
  sessions: Session[];
  messages: Record<string, Message[]>;
  /** The page's callbacks (a Channel's messages, an event's listeners), by id. */
  callbacks: Map<number, (data: unknown) => void>;
  /** Stores a message (a user's unless `part` says otherwise), counted in its session's row. */
  message: (sessionId: string, part: Partial<Message>) => Message;
  /** Stores a new session, titled `title` or as the engine titles an untitled chat. */
  newSession: (title: string | null) => Session;
  /** The next id of the one counter messages, sessions, calls and requests are numbered by. */
  nextId: () => number;
  now: () => number;
}

export function installFakeBackend(scenario: Scenario): void {
  type Cb = (data: unknown) => void;
  const w = window as unknown as Record<string, unknown>;
  const calls: Call[] = [];
  const callbacks = new Map<number, Cb>();
  let nextCallback = 1;
  let nextId = 1;
  const now = () => Date.now();
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  const settings: Settings = {
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
    artifacts: { allowed_extensions: ['md', 'txt', 'csv', 'json'], max_text_segments: 20 },
    knowledge: { folders: [], watch: true },
    local: { idle_minutes: 10, threads: 0, context_length: 0 },
    ...(scenario.settings ?? {}),
  };
  const sessions: Session[] = [...(scenario.sessions ?? [])];
  const messages: Record<string, Message[]> = {};
  for (const [id, list] of Object.entries(scenario.messages ?? {})) {
    messages[id] = [...list];
    for (const m of list) nextId = Math.max(nextId, m.id + 1);
  }
  /** Sessions whose `list_message_page` answers went out, in order. */
  const pagesServed: string[] = [];
  const listeners = new Map<string, number[]>();

  function message(sessionId: string, part: Partial<Message>): Message {
    const m: Message = {
      id: nextId++,
      session_id: sessionId,
      role: 'user',
      kind: 'normal',
      content: [],
      tool_calls: [],
      tool_result: null,
      status: 'complete',
      model: null,
      usage: null,
      error: null,
      error_code: null,
      summary_through: null,
      created_at: now(),
      updated_at: now(),
      ...part,
    };
    (messages[sessionId] ??= []).push(m);
    const s = sessions.find((x) => x.id === sessionId);
    if (s) {
      s.message_count += 1;
      s.updated_at = now();
    }
    return m;
  }

  if (scenario.bulk) {
    const { sessionId, count } = scenario.bulk;
    for (let i = 1; i <= count; i++) {
      const long = i % 7 === 0 ? '\n\nA second paragraph to vary the height of this row.\n\n- one\n- two' : '';
      message(sessionId, {
        role: i % 2 ? 'user' : 'assistant',
        content: [{ type: 'text', text: `Message ${i}${long}` }],
        usage: i % 2 ? null : { input_tokens: 1, output_tokens: 1 },
      });
    }
  }

  /** The store's `message_page`: the `limit` newest messages before `before`, reaching back to
   * `through`, never starting with a tool result; the same refusals. */
  function messagePage(sessionId: string, before: number | null, through: number | null, limit: number) {
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw `invalid limit: ${limit} is not between 1 and 1000`;
    if (!sessions.some((x) => x.id === sessionId)) throw `session not found: ${sessionId}`;
    const list = messages[sessionId] ?? [];
    for (const id of [before, through]) {
      if (id !== null && !list.some((m) => m.id === id)) throw `message not found: ${id} in session ${sessionId}`;
    }
    const end = before === null ? list.length : list.findIndex((m) => m.id === before);
    const top = through === null ? end : list.findIndex((m) => m.id === through) + 1;
    let start = Math.max(0, top - limit);
    while (start > 0 && list[start].role === 'tool') start--;
    const older = list.slice(0, start);
    const usage = { input_tokens: 0, output_tokens: 0 };
    for (const m of older) {
      usage.input_tokens += m.usage?.input_tokens ?? 0;
      usage.output_tokens += m.usage?.output_tokens ?? 0;
    }
    const page = list.slice(start, end).map((m) => ({ ...m }));
    return { messages: page, has_older: page.length > 0 && start > 0, older_usage: usage };
  }

  function newSession(title: string | null): Session {
    const s: Session = {
      id: `desktop:${nextId++}`,
      // As the engine names an untitled chat: in the UI language.
      title: title ?? (settings.language === 'zh-CN' ? '新对话' : 'New chat'),
      model: null,
      workspace: null,
      tool_profile: settings.tool_profile,
      pinned: false,
      message_count: 0,
      created_at: now(),
      updated_at: now(),
    };
    sessions.push(s);
    messages[s.id] = [];
    return s;
  }

  /** Changes a session's row as the store would (refused for an unknown session). */
  function updateSession(id: string, change: Partial<Session>): null {
    const s = sessions.find((x) => x.id === id);
    if (!s) throw `unknown session ${id}`;
    Object.assign(s, change);
    return null;
  }

  const handlers: FakeHandlers = {
    list_sessions: () => sessions.map((s) => ({ ...s })),
    create_session: (a) => {
      // As the app does: an empty "New chat" nobody used is handed back instead of a second.
      const unused = a.title === null
        ? sessions.find((x) => !x.pinned && (messages[x.id]?.length ?? 0) === 0 && ['New chat', '新对话'].includes(x.title))
        : undefined;
      return { ...(unused ?? newSession(a.title)) };
    },
    rename_session: (a) => updateSession(a.id, { title: a.title }),
    set_session_pinned: (a) => updateSession(a.id, { pinned: a.pinned }),
    set_session_model: (a) => updateSession(a.id, { model: a.model }),
    set_session_workspace: (a) => updateSession(a.id, { workspace: a.workspace }),
    delete_session: (a) => {
      const i = sessions.findIndex((x) => x.id === a.id);
      if (i >= 0) sessions.splice(i, 1);
      return null;
    },
    list_message_page: async (a) => {
      const delay = scenario.slowPages?.[a.sessionId];
      if (delay) await sleep(delay);
      const answer = messagePage(a.sessionId, a.before, a.through, a.limit);
      pagesServed.push(a.sessionId);
      return answer;
    },
    search_messages: (a) => {
      const q = a.query.toLowerCase();
      const hits = [];
      for (const [sid, list] of Object.entries(messages)) {
        for (const m of list) {
          const text = m.content.map((p) => (p.type === 'text' ? p.text : '')).join(' ');
          const at = text.toLowerCase().indexOf(q);
          if (at < 0) continue;
          hits.push({
            message_id: m.id,
            session_id: sid,
            session_title: sessions.find((s) => s.id === sid)?.title ?? '',
            role: m.role,
            snippet: `${text.slice(0, at)}<b>${text.slice(at, at + q.length)}</b>${text.slice(at + q.length, at + q.length + 40)}`,
            created_at: m.created_at,
          });
        }
      }
      return hits.slice(0, 20);
    },
    read_workspace_media: (a) => {
      const media = scenario.media?.[a.path];
      if (!media) throw { code: 'other', params: { message: `no such media ${a.path}` } } satisfies AppError;
      return media;
    },
    'plugin:event|listen': (a) => {
      const { event, handler } = a as { event: string; handler: number };
      const list = listeners.get(event) ?? [];
      list.push(handler);
      listeners.set(event, list);
      return handler;
    },
    'plugin:event|unlisten': () => null,
  };

  async function invoke(cmd: string, args: Record<string, unknown> = {}): Promise<unknown> {
    calls.push({ cmd, args });
    const handler = (handlers as unknown as FakeTable)[cmd];
    if (!handler) throw `fake backend: unknown command ${cmd}`;
    return handler(args);
  }

  w.__TAURI_INTERNALS__ = {
    invoke,
    transformCallback(cb: Cb | undefined, once = false): number {
      const id = nextCallback++;
      callbacks.set(id, (data) => {
        if (once) callbacks.delete(id);
        cb?.(data);
      });
      return id;
    },
    unregisterCallback: (id: number) => callbacks.delete(id),
    runCallback: (id: number, data: unknown) => callbacks.get(id)?.(data),
    callbacks,
    metadata: { currentWindow: { label: 'main' }, currentWebview: { windowLabel: 'main', label: 'main' } },
  };
  w.__TAURI_EVENT_PLUGIN_INTERNALS__ = { unregisterListener: () => undefined };
  const emit: FakeEmit = (event: string, payload: unknown) => {
    for (const handler of listeners.get(event) ?? []) callbacks.get(handler)?.({ event, id: handler, payload });
  };
  w.__hearth = {
    calls,
    pagesServed,
    /** The settings turns and new sessions follow; `fake-desktop.ts` reads and saves them. */
    settings,
    /** Delivers an event (the app's, or Tauri's own like `tauri://drag-drop`) to the page's listeners. */
    emit,
    store: { settings, sessions, messages, callbacks, message, newSession, nextId: () => nextId++, now } satisfies FakeStore,
  };
  // Tauri runs the page with `freezePrototype`; so do the tests.
  Object.freeze(Object.prototype);
}
