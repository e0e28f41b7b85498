// Applies the EngineEvents of a running turn to a chat's rows: streaming text, tool cards,
// approvals, the session's checklist, the model's questions and the forms calls ask for,
// compaction, and how the turn ended.
import type { ContentPart } from '../bindings/ContentPart';
import type { EngineEvent } from '../bindings/EngineEvent';
import type { Form } from '../bindings/Form';
import type { TodoList } from '../bindings/TodoList';
import type { SubAgentProgress } from '../bindings/SubAgentProgress';
import type { Usage } from '../bindings/Usage';
import { finishCard, messageKey, skillOf, splitContent, type ChatRow, type NoticeKind, type ToolCard } from './rows';
import { shownError, type ShownError } from '../errors';

export interface ChatState {
  sessionId: string;
  /** The loaded rows: the chat's newest messages, back to the oldest page loaded so far. */
  rows: ChatRow[];
  /** True from the moment the user sends until the turn ends. */
  running: boolean;
  /** Whether the store has messages older than the first row. */
  hasOlder: boolean;
  /** Token usage of those older messages. */
  olderUsage: Usage;
  /** True while an older page is being fetched. */
  loadingOlder: boolean;
  /** The session's checklist, as the `todo` tool last left it. */
  todo: TodoList | null;
  /** The question the model is waiting on, while it waits. */
  question: PendingQuestion | null;
  /** The form a call is waiting on (an MCP server's elicitation), while it waits. */
  form: PendingForm | null;
  /** The sub-agents this chat's turns started, as their last progress reported them. */
  subAgents: SubAgentProgress[];
}

/** A question the model asked (`clarify`): shown until answered, timed out or the turn ends. */
export interface PendingQuestion {
  requestId: string;
  question: string;
  options: string[];
  /** The answer being sent, until the backend took it. */
  sent: string | null;
}

/** A form a call asked the user to fill in: shown until answered, timed out or the turn ends. */
export interface PendingForm {
  requestId: string;
  form: Form;
  /** True while the answer is being sent. */
  sent: boolean;
  /** Why the backend refused the last answer (the card stays open). */
  error: string | null;
}

export function newChatState(
  sessionId: string,
  rows: ChatRow[] = [],
  older: { has_older: boolean; older_usage: Usage } = { has_older: false, older_usage: NO_USAGE },
): ChatState {
  return {
    sessionId,
    rows,
    running: false,
    hasOlder: older.has_older,
    olderUsage: { ...older.older_usage },
    loadingOlder: false,
    todo: null,
    question: null,
    form: null,
    subAgents: [],
  };
}

const NO_USAGE: Usage = { input_tokens: 0, output_tokens: 0 };

let localCounter = 0;

function emptyRow(kind: ChatRow['kind'], now: number): ChatRow {
  localCounter += 1;
  return {
    key: `local${localCounter}`,
    id: null,
    kind,
    text: '',
    attachments: [],
    skill: null,
    tools: [],
    status: 'complete',
    model: null,
    usage: null,
    error: null,
    notice: null,
    createdAt: now,
  };
}

/** Adds the user's message optimistically (no id until `turn_started`) and marks the turn
 * running; `skill` names the skill it runs when the backend adds the skill's part. */
export function addPendingUser(state: ChatState, content: ContentPart[], now = Date.now(), skill: string | null = null): ChatRow {
  const row = emptyRow('user', now);
  const { text, attachments } = splitContent(content);
  row.text = text;
  row.attachments = attachments;
  row.skill = skill ?? skillOf(content);
  state.rows.push(row);
  state.running = true;
  return row;
}

/** Drops the last reply (every row after the last user message) before regenerating it. */
export function dropLastReply(state: ChatState): void {
  let lastUser = -1;
  for (let i = state.rows.length - 1; i >= 0; i--) {
    if (state.rows[i].kind === 'user') {
      lastUser = i;
      break;
    }
  }
  if (lastUser >= 0) {
    state.rows.splice(lastUser + 1);
    state.rows[lastUser].error = null;
  }
  state.running = true;
}

/** The state of the fork an edit creates: the rows before `messageId`, then the edited message. */
export function forkForEdit(
  state: ChatState,
  messageId: number,
  content: ContentPart[],
  now = Date.now(),
): ChatState {
  const index = state.rows.findIndex((r) => r.id === messageId);
  const kept = index < 0 ? [...state.rows] : state.rows.slice(0, index);
  const fork = newChatState(
    state.sessionId,
    kept.map((r) => ({ ...r, tools: r.tools.map((c) => ({ ...c })) })),
    { has_older: state.hasOlder, older_usage: state.olderUsage },
  );
  addPendingUser(fork, content, now);
  return fork;
}

function findRow(state: ChatState, id: number): ChatRow | undefined {
  for (let i = state.rows.length - 1; i >= 0; i--) if (state.rows[i].id === id) return state.rows[i];
  return undefined;
}

function assistantRow(state: ChatState, id: number, now: number): ChatRow {
  const existing = findRow(state, id);
  if (existing) return existing;
  const row = emptyRow('assistant', now);
  row.key = messageKey(id);
  row.id = id;
  row.status = 'streaming';
  state.rows.push(row);
  return row;
}

function findCard(state: ChatState, match: (card: ToolCard) => boolean): ToolCard | undefined {
  for (let i = state.rows.length - 1; i >= 0; i--) {
    const card = state.rows[i].tools.find(match);
    if (card) return card;
  }
  return undefined;
}

function lastAssistant(state: ChatState, now: number): ChatRow {
  for (let i = state.rows.length - 1; i >= 0; i--) if (state.rows[i].kind === 'assistant') return state.rows[i];
  const row = emptyRow('assistant', now);
  state.rows.push(row);
  return row;
}

function pushNotice(state: ChatState, notice: NoticeKind, error: ShownError | null, now: number): void {
  const row = emptyRow('notice', now);
  row.notice = notice;
  row.error = error;
  state.rows.push(row);
}

/** Ends whatever was still in flight: streaming text and unfinished tool calls. */
function settle(state: ChatState, status: 'interrupted' | 'failed'): void {
  for (const row of state.rows) {
    if (row.status === 'streaming') row.status = status;
    for (const card of row.tools) if (card.status === 'running' || card.status === 'awaiting_approval') card.status = 'error';
  }
}

/** Applies one event in place. Unknown ids never throw: a row or card is created where needed. */
export function applyEvent(state: ChatState, event: EngineEvent, now = Date.now()): void {
  switch (event.type) {
    case 'turn_started': {
      state.running = true;
      state.sessionId = event.session_id;
      if (findRow(state, event.user_message_id)) break;
      for (let i = state.rows.length - 1; i >= 0; i--) {
        const row = state.rows[i];
        if (row.kind === 'user' && row.id === null) {
          row.id = event.user_message_id;
          break;
        }
      }
      break;
    }
    case 'assistant_started': {
      const row = assistantRow(state, event.message_id, now);
      row.model = event.model;
      row.status = 'streaming';
      break;
    }
    case 'text_delta':
      assistantRow(state, event.message_id, now).text += event.text;
      break;
    case 'assistant_finished': {
      const row = assistantRow(state, event.message_id, now);
      row.usage = event.usage;
      row.status = 'complete';
      break;
    }
    case 'tool_call_started': {
      const row = assistantRow(state, event.message_id, now);
      const card = row.tools.find((c) => c.call.id === event.call.id);
      if (card) {
        card.status = 'running';
        card.runningViews = event.views;
      } else row.tools.push({ call: event.call, status: 'running', result: null, approval: null, runningViews: event.views });
      break;
    }
    case 'approval_requested': {
      let card = findCard(state, (c) => c.call.id === event.call.id);
      if (!card) {
        card = { call: event.call, status: 'running', result: null, approval: null };
        lastAssistant(state, now).tools.push(card);
      }
      card.status = 'awaiting_approval';
      card.approval = {
        requestId: event.request_id,
        reason: event.reason,
        code: event.reason_code,
        agent: event.agent,
        view: event.view,
        startsPrograms: event.starts_programs,
        decision: null,
        sent: null,
      };
      break;
    }
    case 'approval_resolved': {
      const card = findCard(state, (c) => c.approval?.requestId === event.request_id);
      if (!card || !card.approval) break;
      card.approval.decision = event.decision;
      card.approval.sent = null;
      if (card.status === 'awaiting_approval') card.status = event.decision === 'deny' ? 'error' : 'running';
      break;
    }
    case 'tool_call_finished': {
      const row = assistantRow(state, event.message_id, now);
      let card = row.tools.find((c) => c.call.id === event.result.call_id);
      if (!card) {
        card = {
          call: { id: event.result.call_id, name: event.result.name, arguments: '' },
          status: 'running',
          result: null,
          approval: null,
        };
        row.tools.push(card);
      }
      finishCard(card, event.result);
      break;
    }
    case 'compacted':
      pushNotice(state, 'compacted', null, now);
      break;
    case 'todo_changed':
      if (event.list.session_id === state.sessionId) state.todo = event.list;
      break;
    case 'question_asked':
      state.question = { requestId: event.request_id, question: event.question, options: event.options, sent: null };
      break;
    case 'form_requested':
      state.form = { requestId: event.request_id, form: event.form, sent: false, error: null };
      break;
    case 'question_closed':
      if (state.question?.requestId === event.request_id) state.question = null;
      if (state.form?.requestId === event.request_id) state.form = null;
      break;
    case 'turn_finished':
      state.running = false;
      state.question = null;
      state.form = null;
      if (event.reason === 'cancelled') {
        settle(state, 'interrupted');
        pushNotice(state, 'cancelled', null, now);
      } else if (event.reason === 'max_iterations') {
        settle(state, 'interrupted');
        pushNotice(state, 'max_iterations', null, now);
      }
      break;
    case 'turn_failed':
      failTurn(state, shownError(event.error), now);
      break;
    case 'sub_agent': {
      const at = state.subAgents.findIndex((p) => p.run_id === event.progress.run_id);
      if (at >= 0) state.subAgents[at] = event.progress;
      else state.subAgents.push(event.progress);
      break;
    }
  }
}

/** Marks the turn failed: used for `turn_failed` and when the command itself rejects. The
 * error is shown once, on the message it belongs to: the reply that failed, or the user's
 * message when no reply was started (no provider, no key); a notice only after a finished step. */
export function failTurn(state: ChatState, error: ShownError, now = Date.now()): void {
  state.running = false;
  state.question = null;
  state.form = null;
  settle(state, 'failed');
  const last = state.rows.at(-1);
  if (last && ((last.kind === 'assistant' && last.status === 'failed') || last.kind === 'user')) {
    last.error = error;
    return;
  }
  pushNotice(state, 'failed', error, now);
}

/** Takes back the optimistic user row of a send the backend refused before storing it (the
 * composer still holds its text). */
export function dropPendingUser(state: ChatState): void {
  const last = state.rows.at(-1);
  if (last?.kind === 'user' && last.id === null) state.rows.pop();
  state.running = false;
}
