// A scripted stand-in for the Rust backend, installed into the page before the app boots. It
// speaks the same IPC shape as `@tauri-apps/api/mocks` mockIPC (`__TAURI_INTERNALS__.invoke`,
// `transformCallback`, Channel messages `{index, message}` / `{index, end}`), keeps sessions and
// messages in memory like the store would, streams turns from a script, and records every call in
// `window.__hearth.calls`. The commands outside chats are in `fake-desktop.ts`. `installFakeBackend`
// is serialized into the page: it must not use anything from outside its own body.
import type { AppError } from '../../src/lib/bindings/AppError';
import type { ApprovalDecision } from '../../src/lib/bindings/ApprovalDecision';
import type { ContentPart } from '../../src/lib/bindings/ContentPart';
import type { EngineEvent } from '../../src/lib/bindings/EngineEvent';
import type { Message } from '../../src/lib/bindings/Message';
import type { Session } from '../../src/lib/bindings/Session';
import type { Settings } from '../../src/lib/bindings/Settings';
import type { TodoItem } from '../../src/lib/bindings/TodoItem';
import type { TodoList } from '../../src/lib/bindings/TodoList';
import type { ToolView } from '../../src/lib/bindings/ToolView';
import type { Form } from '../../src/lib/bindings/Form';
import type { FormAnswer } from '../../src/lib/bindings/FormAnswer';
import type { FormField } from '../../src/lib/bindings/FormField';
import type { FakeEmit, FakeHandlers, FakeTable } from './fake-ipc';

/** A form as a scenario gives it: defaults are plain values (Playwright's types of an init
 * script's argument cannot take the recursive `JsonValue`). */
export type FakeForm = Omit<Form, 'fields'> & { fields: (Omit<FormField, 'default'> & { default: string | number | boolean | null })[] };

/** One step of a scripted turn. */
export type Step =
  /** `text` in deltas of `chunk` characters, `delayMs` apart; with `paced`, each delta is due at
   * its slot against the start and sent in its own task even when the page runs late (like the
   * app's per-frame IPC messages queueing up behind a busy page). */
  | { text: string; chunk?: number; delayMs?: number; paced?: boolean }
  | { tool: FakeTool }
  /** A `todo` call that leaves the session's checklist with these items. */
  | { todo: TodoItem[] }
  /** A `clarify` call: shows the question and waits for `answer_question`. */
  | { clarify: { question: string; options: string[] } }
  /** A call of `tool` that asks for `form` (an MCP elicitation) and waits for `answer_form`;
   * its result is the answer. The first filled-in answer is refused with `refuse` if given. */
  | { form: { tool: string; form: FakeForm; refuse?: AppError } }
  /** Streams "." until cancel_turn arrives, then ends the turn as cancelled. */
  | { untilCancelled: true }
  /** Fails the turn: with a message (sent as an untyped `other` error) or a typed error. */
  | { fail: string | AppError };

/** A scripted tool call: its result and, typed as the engine builds them, the views its card
 * shows (while it runs, and once it has its result); with `approval`, the call asks first (`proposed`: what it would change; `startsPrograms`:
 * it runs in the sandbox). */
export interface FakeTool {
  name: string;
  arguments: string;
  result: string;
  isError?: boolean;
  views?: ToolView[];
  /** The views of the call while it runs. */
  runningViews?: ToolView[];
  approval?: string;
  proposed?: ToolView;
  startsPrograms?: boolean;
  images?: ContentPart[];
}

export interface Scenario {
  settings?: Partial<Settings>;
  sessions?: Session[];
  messages?: Record<string, Message[]>;
  /** Generates `count` alternating user/assistant messages in session `sessionId`. */
  bulk?: { sessionId: string; count: number };
  /** Milliseconds `list_message_page` takes for these sessions (default: answers at once). */
  slowPages?: Record<string, number>;
  script?: Step[];
  /** `send_message` rejects with this error before storing the message (e.g. a busy chat). */
  refuseSend?: AppError;
  /** What `read_workspace_media` answers, by workspace path (others are refused). */
  media?: Record<string, { mime_type: string; data_base64: string }>;
}

export interface Call {
  cmd: string;
  args: Record<string, unknown>;
}

export function installFakeBackend(scenario: Scenario): void {
  type Cb = (data: unknown) => void;
  type ChannelRef = { id: number };
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
  const cancelled = new Set<string>();
  /** Sessions whose `list_message_page` answers went out, in order. */
  const pagesServed: string[] = [];
  const approvals = new Map<string, (d: ApprovalDecision) => void>();
  const questions = new Map<string, (answer: string) => void>();
  const forms = new Map<string, { refuse?: AppError; answer: (answer: FormAnswer) => void }>();
  const todos: Record<string, TodoList> = {};
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

  /** Runs the scenario's script as one turn, streaming events over `channel`. */
  async function runTurn(sessionId: string, channel: ChannelRef, userMessageId: number): Promise<void> {
    // Like the real command: a failed turn reports turn_failed and then rejects.
    let failure: AppError | null = null;
    let index = 0;
    const send = (event: EngineEvent) => callbacks.get(channel.id)?.({ index: index++, message: event });
    const usage = { input_tokens: 0, output_tokens: 0 };
    send({ type: 'turn_started', session_id: sessionId, user_message_id: userMessageId });
    let reason: 'completed' | 'cancelled' = 'completed';
    const model = sessions.find((s) => s.id === sessionId)?.model ?? settings.default_model ?? 'fake-model';
    try {
      for (const step of scenario.script ?? [{ text: 'Hello from the fake backend.' }]) {
        if ('fail' in step) throw typeof step.fail === 'string' ? new Error(step.fail) : step.fail;
        const reply = message(sessionId, { role: 'assistant', status: 'streaming', model });
        send({ type: 'assistant_started', message_id: reply.id, model });
        const stepUsage = { input_tokens: 12, output_tokens: 7 };
        if ('text' in step) {
          const size = step.chunk ?? 8;
          let text = '';
          const start = performance.now();
          const delay = step.delayMs ?? 5;
          for (let i = 0, slot = 1; i < step.text.length; i += size, slot++) {
            const piece = step.text.slice(i, i + size);
            text += piece;
            send({ type: 'text_delta', message_id: reply.id, text: piece });
            await sleep(step.paced ? start + slot * delay - performance.now() : delay);
          }
          reply.content = [{ type: 'text', text }];
        } else if ('untilCancelled' in step) {
          let text = '';
          while (!cancelled.has(sessionId)) {
            text += '.';
            send({ type: 'text_delta', message_id: reply.id, text: '.' });
            await sleep(50);
          }
          reply.content = [{ type: 'text', text }];
          reply.status = 'interrupted';
          reason = 'cancelled';
        } else {
          const tool = 'tool' in step ? step.tool : planningTool(sessionId, step, send);
          const call = { id: `call-${nextId++}`, name: tool.name, arguments: tool.arguments };
          reply.tool_calls = [call];
          send({ type: 'assistant_finished', message_id: reply.id, usage: stepUsage, stop_reason: 'tool_use' });
          send({ type: 'tool_call_started', message_id: reply.id, call, views: tool.runningViews ?? [] });
          let decision: ApprovalDecision = 'allow_once';
          if (tool.approval) {
            const requestId = `req-${nextId++}`;
            const decided = new Promise<ApprovalDecision>((resolve) => approvals.set(requestId, resolve));
            const reason_code = {
              reason: { code: 'needs_approval', params: { tool: call.name, security: 'personal_cli', every_time: false } },
              confirmation: tool.approval,
              allowed: null,
            } as const;
            send({
              type: 'approval_requested',
              request_id: requestId,
              session_id: sessionId,
              call,
              reason: tool.approval,
              reason_code,
              agent: null,
              view: tool.proposed ?? null,
              starts_programs: !!tool.startsPrograms,
            });
            decision = await decided;
            send({ type: 'approval_resolved', request_id: requestId, decision });
          }
          if ('clarify' in step) {
            const requestId = `q-${nextId++}`;
            const answered = new Promise<string>((resolve) => questions.set(requestId, resolve));
            send({ type: 'question_asked', request_id: requestId, session_id: sessionId, ...step.clarify });
            tool.result = JSON.stringify({ answer: await answered });
            send({ type: 'question_closed', request_id: requestId, answered: true });
          }
          if ('form' in step) {
            const requestId = `f-${nextId++}`;
            const answered = new Promise<FormAnswer>((answer) => forms.set(requestId, { refuse: step.form.refuse, answer }));
            send({ type: 'form_requested', request_id: requestId, session_id: sessionId, form: step.form.form });
            tool.result = JSON.stringify(await answered);
            send({ type: 'question_closed', request_id: requestId, answered: true });
          }
          await sleep(20);
          const denied = decision === 'deny';
          const refusal = { kind: 'failure', error: 'denied_by_user', message: 'the user did not approve this call (user)', field: null } as const;
          const result = {
            call_id: call.id,
            name: call.name,
            content: denied ? JSON.stringify({ error: { kind: refusal.error, message: refusal.message } }) : tool.result,
            is_error: denied || !!tool.isError,
            duration_ms: 20,
            images: denied || !('tool' in step) ? [] : (step.tool.images ?? []),
            views: denied ? [refusal] : (tool.views ?? []),
          };
          message(sessionId, { role: 'tool', tool_result: result });
          send({ type: 'tool_call_finished', message_id: reply.id, result });
        }
        if (reply.status === 'streaming') reply.status = 'complete';
        reply.usage = stepUsage;
        usage.input_tokens += stepUsage.input_tokens;
        usage.output_tokens += stepUsage.output_tokens;
        if (!('tool' in step || 'todo' in step || 'clarify' in step || 'form' in step)) send({ type: 'assistant_finished', message_id: reply.id, usage: stepUsage, stop_reason: 'end_turn' });
        if (reason === 'cancelled') break;
      }
      send({ type: 'turn_finished', session_id: sessionId, iterations: 1, usage, reason });
    } catch (e) {
      for (const m of messages[sessionId]) if (m.status === 'streaming') m.status = 'failed';
      failure = e instanceof Error ? { code: 'other', params: { message: e.message } } : (e as AppError);
      send({ type: 'turn_failed', session_id: sessionId, error: failure });
    } finally {
      cancelled.delete(sessionId);
      callbacks.get(channel.id)?.({ index: index++, end: true });
    }
    if (failure !== null) throw failure;
  }

  /** The tool call of a `todo`, `clarify` or `form` step; a `todo` step stores and shows its list. */
  function planningTool(
    sessionId: string,
    step: { todo: TodoItem[] } | { clarify: { question: string; options: string[] } } | { form: { tool: string } },
    send: (event: EngineEvent) => void,
  ): FakeTool {
    if ('clarify' in step) return { name: 'clarify', arguments: JSON.stringify(step.clarify), result: '' };
    if ('form' in step) return { name: step.form.tool, arguments: '{}', result: '' };
    const list = { session_id: sessionId, revision: (todos[sessionId]?.revision ?? 0) + 1, items: step.todo, next_id: step.todo.length + 1, updated_at: now() };
    todos[sessionId] = list;
    send({ type: 'todo_changed', list });
    return { name: 'todo', arguments: '{"action":"update"}', result: JSON.stringify(list) };
  }

  /** Stores the user's message; as the engine does, a chat's first one titles an untitled chat
   * by its first line (60 characters at most). */
  function userMessage(sessionId: string, content: ContentPart[]): Message {
    const session = sessions.find((s) => s.id === sessionId);
    const line = content.flatMap((p) => (p.type === 'text' ? p.text.split('\n') : [])).find((l) => l.trim())?.trim();
    if (session && line && !(messages[sessionId]?.length) && ['New chat', '新对话'].includes(session.title)) {
      session.title = [...line].length > 60 ? `${[...line].slice(0, 60).join('')}…` : line;
    }
    return message(sessionId, { role: 'user', content });
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
    send_message: async (a) => {
      if (scenario.refuseSend) throw scenario.refuseSend;
      const user = userMessage(a.sessionId, a.content);
      await runTurn(a.sessionId, a.onEvent, user.id);
      return null;
    },
    regenerate: async (a) => {
      const list = messages[a.sessionId] ?? [];
      let lastUser = list.length - 1;
      while (lastUser >= 0 && list[lastUser].role !== 'user') lastUser--;
      list.splice(lastUser + 1);
      await runTurn(a.sessionId, a.onEvent, list[lastUser]?.id ?? 0);
      return null;
    },
    edit_message: async (a) => {
      const source = sessions.find((s) => s.id === a.sessionId);
      const fork = newSession(`${source?.title ?? 'Chat'} (edited)`);
      for (const m of messages[a.sessionId] ?? []) {
        if (m.id === a.messageId) break;
        const { id: _copiedId, ...rest } = m;
        message(fork.id, { ...rest, session_id: fork.id });
      }
      const user = userMessage(fork.id, a.content);
      await runTurn(fork.id, a.onEvent, user.id);
      return { ...fork };
    },
    read_workspace_media: (a) => {
      const media = scenario.media?.[a.path];
      if (!media) throw { code: 'other', params: { message: `no such media ${a.path}` } } satisfies AppError;
      return media;
    },
    cancel_turn: (a) => {
      cancelled.add(a.sessionId);
      return null;
    },
    resolve_approval: (a) => {
      const resolve = approvals.get(a.requestId);
      if (!resolve) throw `no pending approval ${a.requestId}`;
      approvals.delete(a.requestId);
      resolve(a.decision);
      return null;
    },
    todo_list: (a) => todos[a.sessionId] ?? null,
    answer_form: (a) => {
      const waiting = forms.get(a.requestId);
      if (!waiting) throw { code: 'question_gone' } satisfies AppError;
      const refusal = a.answer.action === 'accept' ? waiting.refuse : undefined;
      delete waiting.refuse;
      if (refusal) throw refusal;
      forms.delete(a.requestId);
      waiting.answer(a.answer);
      return null;
    },
    answer_question: (a) => {
      const resolve = questions.get(a.requestId);
      if (!resolve) throw { code: 'question_gone' } satisfies AppError;
      questions.delete(a.requestId);
      resolve(a.answer);
      return null;
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
  };
  // Tauri runs the page with `freezePrototype`; so do the tests.
  Object.freeze(Object.prototype);
}
