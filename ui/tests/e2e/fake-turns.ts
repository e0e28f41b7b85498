// The chat turns of the fake backend: runs a scenario's script as a turn (streamed text, tool
// calls asking for approval, questions and forms, checklists, failures and cancellation) for
// `send_message`, `regenerate` and `edit_message`, and answers the approvals, questions and forms
// the turn waits for. Installed right after `installFakeBackend`, whose store it shares
// (`window.__hearth.store`), it wraps `__TAURI_INTERNALS__.invoke` like `fake-jobs.ts` and records
// calls in the same `window.__hearth.calls`. Serialized into the page: it must not use anything
// from outside its own body.
import type { AppError } from '../../src/lib/bindings/AppError';
import type { ApprovalDecision } from '../../src/lib/bindings/ApprovalDecision';
import type { ContentPart } from '../../src/lib/bindings/ContentPart';
import type { EngineEvent } from '../../src/lib/bindings/EngineEvent';
import type { Message } from '../../src/lib/bindings/Message';
import type { TodoItem } from '../../src/lib/bindings/TodoItem';
import type { TodoList } from '../../src/lib/bindings/TodoList';
import type { ToolView } from '../../src/lib/bindings/ToolView';
import type { Form } from '../../src/lib/bindings/Form';
import type { FormAnswer } from '../../src/lib/bindings/FormAnswer';
import type { FormField } from '../../src/lib/bindings/FormField';
import type { Call, FakeStore } from './fake-backend';
import type { FakeHandlers, FakeTable } from './fake-ipc';

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

/** What a scenario says about its chat turns. */
export interface TurnsScenario {
  script?: Step[];
  /** `send_message` rejects with this error before storing the message (e.g. a busy chat). */
  refuseSend?: AppError;
}

export function installFakeTurns(scenario: TurnsScenario): void {
  type ChannelRef = { id: number };
  const w = window as unknown as {
    __TAURI_INTERNALS__: { invoke: (cmd: string, args?: Record<string, unknown>) => Promise<unknown> };
    __hearth: { calls: Call[]; store: FakeStore };
  };
  const original = w.__TAURI_INTERNALS__.invoke;
  const { settings, sessions, messages, callbacks, message, newSession, nextId, now } = w.__hearth.store;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const cancelled = new Set<string>();
  const approvals = new Map<string, (d: ApprovalDecision) => void>();
  const questions = new Map<string, (answer: string) => void>();
  const forms = new Map<string, { refuse?: AppError; answer: (answer: FormAnswer) => void }>();
  const todos: Record<string, TodoList> = {};

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
          const call = { id: `call-${nextId()}`, name: tool.name, arguments: tool.arguments };
          reply.tool_calls = [call];
          send({ type: 'assistant_finished', message_id: reply.id, usage: stepUsage, stop_reason: 'tool_use' });
          send({ type: 'tool_call_started', message_id: reply.id, call, views: tool.runningViews ?? [] });
          let decision: ApprovalDecision = 'allow_once';
          if (tool.approval) {
            const requestId = `req-${nextId()}`;
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
            const requestId = `q-${nextId()}`;
            const answered = new Promise<string>((resolve) => questions.set(requestId, resolve));
            send({ type: 'question_asked', request_id: requestId, session_id: sessionId, ...step.clarify });
            tool.result = JSON.stringify({ answer: await answered });
            send({ type: 'question_closed', request_id: requestId, answered: true });
          }
          if ('form' in step) {
            const requestId = `f-${nextId()}`;
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

  const handlers: FakeHandlers = {
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
  };

  w.__TAURI_INTERNALS__.invoke = async (cmd: string, args: Record<string, unknown> = {}) => {
    const handler = (handlers as unknown as FakeTable)[cmd];
    if (!handler) return original(cmd, args);
    w.__hearth.calls.push({ cmd, args });
    return handler(args);
  };
}
