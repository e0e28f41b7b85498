// The chat view model: stored messages folded into display rows (assistant text plus its tool
// cards, with tool results merged into the card of the call they answer).
import { storedError, type ShownError } from '../errors';
import type { ApprovalDecision } from '../bindings/ApprovalDecision';
import type { ContentPart } from '../bindings/ContentPart';
import type { Message } from '../bindings/Message';
import type { MessageStatus } from '../bindings/MessageStatus';
import type { ToolCall } from '../bindings/ToolCall';
import type { ToolResult } from '../bindings/ToolResult';
import type { ToolView } from '../bindings/ToolView';
import type { Usage } from '../bindings/Usage';
import type { AuditReason } from '../bindings/AuditReason';

export type ToolStatus = 'running' | 'awaiting_approval' | 'ok' | 'error';

export interface ApprovalState {
  requestId: string;
  /** The reason in English, shown when it came without its data (older engines). */
  reason: string;
  /** The reason as data, shown in the UI language. */
  code: AuditReason | null;
  /** The sub-agent asking, when a child of this chat's turn asks. */
  agent: string | null;
  /** What the call would change (an edit, a patch or a write), when it changes a file. */
  view: ToolView | null;
  /** The call starts programs, which run in the sandbox of Settings → Security. */
  startsPrograms: boolean;
  /** The decision the engine confirmed (approval_resolved), if any. */
  decision: ApprovalDecision | null;
  /** The decision the user clicked, while it is being sent. */
  sent: ApprovalDecision | null;
}

export interface ToolCard {
  call: ToolCall;
  status: ToolStatus;
  result: ToolResult | null;
  approval: ApprovalState | null;
  /** What the card shows while its call runs (from tool_call_started). */
  runningViews?: ToolView[];
}

export type NoticeKind = 'compacted' | 'cancelled' | 'failed' | 'max_iterations';

export interface ChatRow {
  /** Stable identity for keyed rendering; survives the pending user row getting its real id. */
  key: string;
  /** Stored message id; null for rows not (yet) stored. */
  id: number | null;
  kind: 'user' | 'assistant' | 'summary' | 'notice';
  text: string;
  /** Parts beyond the message text: images, files, attached text, and the skill's own part
   * (so an edit keeps the skill). */
  attachments: ContentPart[];
  /** The skill the message runs (shown as a chip beside the text), from its skill part. */
  skill: string | null;
  tools: ToolCard[];
  status: MessageStatus;
  model: string | null;
  usage: Usage | null;
  error: ShownError | null;
  notice: NoticeKind | null;
  createdAt: number;
}

/** The first typed text part is the message body; every other part (attached text, which the
 * backend marks as such, included) is an attachment. */
export function splitContent(parts: ContentPart[]): { text: string; attachments: ContentPart[] } {
  const first = parts.findIndex((p) => p.type === 'text');
  if (first < 0) return { text: '', attachments: [...parts] };
  const body = parts[first];
  return {
    text: body.type === 'text' ? body.text : '',
    attachments: parts.filter((_, i) => i !== first),
  };
}

/** The name of the skill `parts` run, if any. */
export function skillOf(parts: ContentPart[]): string | null {
  for (const part of parts) if (part.type === 'skill') return part.name;
  return null;
}

export function messageKey(id: number): string {
  return `m${id}`;
}

function rowFromMessage(m: Message): ChatRow {
  const { text, attachments } = splitContent(m.content);
  return {
    key: messageKey(m.id),
    id: m.id,
    kind: m.kind === 'summary' ? 'summary' : m.role === 'user' ? 'user' : 'assistant',
    text,
    attachments,
    skill: skillOf(m.content),
    tools: m.tool_calls.map((call) => ({ call, status: 'running', result: null, approval: null })),
    status: m.status,
    model: m.model,
    usage: m.usage,
    error: storedError(m.error_code, m.error),
    notice: null,
    createdAt: m.created_at,
  };
}

export function finishCard(card: ToolCard, result: ToolResult): void {
  card.result = result;
  card.status = result.is_error ? 'error' : 'ok';
}

/** Folds stored messages into rows. Tool messages fill their call's card; system messages and
 * orphan tool results are not shown. Cards of calls that never got a result (the process died
 * mid-call) are marked as errors once the message is no longer streaming. */
export function buildRows(messages: Message[]): ChatRow[] {
  const rows: ChatRow[] = [];
  const cards = new Map<string, ToolCard>();
  for (const m of messages) {
    if (m.role === 'system' && m.kind !== 'summary') continue;
    if (m.role === 'tool') {
      const card = m.tool_result ? cards.get(m.tool_result.call_id) : undefined;
      if (card && m.tool_result) finishCard(card, m.tool_result);
      continue;
    }
    const row = rowFromMessage(m);
    for (const card of row.tools) cards.set(card.call.id, card);
    rows.push(row);
  }
  for (const row of rows) {
    if (row.status === 'streaming') continue;
    for (const card of row.tools) if (card.status === 'running') card.status = 'error';
  }
  return rows;
}

function sameRow(a: ChatRow, b: ChatRow): boolean {
  return (
    a.id !== null &&
    a.id === b.id &&
    a.kind === b.kind &&
    a.status === b.status &&
    a.text === b.text &&
    a.attachments.length === b.attachments.length &&
    a.tools.length === b.tools.length &&
    a.tools.every((card, i) => card.call.id === b.tools[i].call.id && card.status === b.tools[i].status)
  );
}

/** How many leading rows of `current` already show what `fresh` (rebuilt from the store) shows,
 * so a reload only replaces the rows after them and long chats keep their row objects. Rows
 * before `settled` were reconciled earlier and are compared by key only (cheap for long chats). */
export function commonPrefix(current: readonly ChatRow[], fresh: readonly ChatRow[], settled = 0): number {
  const n = Math.min(current.length, fresh.length);
  let i = 0;
  while (i < n && i < settled && current[i].key === fresh[i].key) i++;
  if (i < Math.min(settled, n)) return i;
  while (i < n && sameRow(current[i], fresh[i])) i++;
  return i;
}

/** Approvals are not stored: after rows are rebuilt from the store, give each card back the
 * approval it had in `previous` (matched by call id). */
export function carryApprovals(previous: ChatRow[], rows: ChatRow[]): ChatRow[] {
  const approvals = new Map<string, ApprovalState>();
  for (const row of previous) for (const card of row.tools) if (card.approval) approvals.set(card.call.id, card.approval);
  if (approvals.size === 0) return rows;
  for (const row of rows) {
    for (const card of row.tools) {
      const approval = approvals.get(card.call.id);
      if (approval) card.approval = { ...approval, sent: null };
    }
  }
  return rows;
}

/** A turn's failure shown on a message (translated, and on a user message not stored at all):
 * after rows are rebuilt from the store, each row with an id gets back the error it showed. */
export function carryTurnErrors(previous: ChatRow[], rows: ChatRow[]): ChatRow[] {
  const errors = new Map<number, ShownError>();
  for (const row of previous) if (row.id !== null && row.error) errors.set(row.id, row.error);
  for (const row of rows) {
    const error = row.id === null ? undefined : errors.get(row.id);
    if (error) row.error = error;
  }
  return rows;
}

/** Sum of the usage of every reply in `rows`, plus `older` (the messages not loaded). */
export function chatUsage(rows: ChatRow[], older: Usage = { input_tokens: 0, output_tokens: 0 }): Usage {
  const total: Usage = { ...older };
  for (const row of rows) {
    if (!row.usage) continue;
    total.input_tokens += row.usage.input_tokens;
    total.output_tokens += row.usage.output_tokens;
  }
  return total;
}

/** `text` without whitespace outside JSON strings. */
function minifyJson(text: string): string {
  let out = '';
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    if (inString) {
      out += ch;
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (!/\s/.test(ch)) {
      out += ch;
    }
  }
  return out;
}

/**
 * Pretty-printed JSON when `text` is JSON that survives a parse/print round trip unchanged, else
 * the text exactly as given (so duplicate keys, huge numbers or odd escapes are never hidden).
 */
export function prettyJson(text: string): string {
  try {
    const value: unknown = JSON.parse(text);
    if (JSON.stringify(value) !== minifyJson(text)) return text;
    return JSON.stringify(value, null, 2);
  } catch {
    return text;
  }
}
