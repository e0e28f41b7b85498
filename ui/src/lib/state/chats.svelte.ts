// Per-session chat state and the turn controller: sends, stops, regenerates and edits turns,
// feeding their streamed events through the reducer, and answers approval requests and the
// model's questions; keeps each chat's checklist.
import { api, errorText, type EventHandler } from '../api';
import { shownError } from '../errors';
import type { ApprovalDecision } from '../bindings/ApprovalDecision';
import type { FormAnswer } from '../bindings/FormAnswer';
import type { ContentPart } from '../bindings/ContentPart';
import type { MessagePage } from '../bindings/MessagePage';
import { t } from '../i18n/index.svelte';
import {
  addPendingUser,
  applyEvent,
  dropLastReply,
  dropPendingUser,
  failTurn,
  forkForEdit,
  newChatState,
  type ChatState,
} from '../chat/reducer';
import { newestStoredId, oldestStoredId, olderRows, PAGE_SIZE, tailStart } from '../chat/paging';
import { coalesceDeltas } from '../chat/coalesce';
import { buildRows, carryApprovals, carryTurnErrors, commonPrefix, type ChatRow, type ToolCard } from '../chat/rows';
import { app } from './app.svelte';
import { toasts } from './toasts.svelte';

/** Notices that are not stored and should survive the reload that follows a turn. */
function turnNotices(rows: ChatRow[], from: number): ChatRow[] {
  return rows.slice(from).filter((r) => r.kind === 'notice' && r.notice !== 'compacted');
}

/** Brings `chat` in line with a page of its newest messages: rows from where the page begins
 * are replaced, except the part that is unchanged (approval decisions, which are not stored, are
 * carried over); rows before the page stay. */
function applyTail(chat: ChatState, page: MessagePage, extra: ChatRow[] = [], settled = 0): void {
  const fresh = buildRows(page.messages);
  const base = tailStart(chat.rows, fresh);
  if (base === 0) {
    chat.hasOlder = page.has_older;
    chat.olderUsage = page.older_usage;
  }
  const keep = base + commonPrefix(chat.rows.slice(base), fresh, Math.max(0, settled - base));
  const previous = $state.snapshot(chat.rows.slice(keep)) as ChatRow[];
  const tail = [...carryTurnErrors(previous, carryApprovals(previous, fresh.slice(keep - base))), ...extra];
  chat.rows.splice(keep, chat.rows.length - keep, ...tail);
}

/** The chat's newest page, from message `through` on when given (falling back to the newest
 * page when that message is gone). */
async function newestPage(sessionId: string, through: number | null): Promise<MessagePage> {
  if (through !== null) {
    try {
      return await api.listMessagePage(sessionId, { through, limit: 1 });
    } catch {
      // The message was deleted meanwhile: take the newest page.
    }
  }
  return api.listMessagePage(sessionId, { limit: PAGE_SIZE });
}

class Chats {
  byId = $state<Record<string, ChatState>>({});
  /** The latest load of each session's newest page; an answer to an earlier one is dropped. */
  private readonly loads = new Map<string, number>();

  get(sessionId: string): ChatState | undefined {
    return this.byId[sessionId];
  }

  /** Starts a load of `sessionId`'s newest page; the returned check says whether it is still
   * the latest. */
  private beginLoad(sessionId: string): () => boolean {
    const generation = (this.loads.get(sessionId) ?? 0) + 1;
    this.loads.set(sessionId, generation);
    return () => this.loads.get(sessionId) === generation;
  }

  /** Loads a chat's newest page unless a turn is streaming into it. */
  async open(sessionId: string): Promise<void> {
    if (this.byId[sessionId]?.running) return;
    const latest = this.beginLoad(sessionId);
    try {
      const page = await api.listMessagePage(sessionId, { limit: PAGE_SIZE });
      const current = this.byId[sessionId];
      if (!latest() || current?.running) return;
      if (current) applyTail(current, page);
      else this.byId[sessionId] = newChatState(sessionId, buildRows(page.messages), page);
      void this.loadTodo(sessionId);
    } catch (e) {
      toasts.error(t('app.error', { error: errorText(e) }));
    }
  }

  /** Loads the page before the chat's first row; with `through`, back to that message. */
  async loadOlder(sessionId: string, through: number | null = null): Promise<void> {
    const chat = this.byId[sessionId];
    const before = chat ? oldestStoredId(chat.rows) : null;
    if (!chat || !chat.hasOlder || chat.loadingOlder || before === null) return;
    chat.loadingOlder = true;
    try {
      const page = await api.listMessagePage(sessionId, { before, through, limit: PAGE_SIZE });
      if (this.byId[sessionId] === chat && oldestStoredId(chat.rows) === before) {
        chat.rows = [...olderRows(chat.rows, buildRows(page.messages)), ...chat.rows];
        chat.hasOlder = page.has_older;
        chat.olderUsage = page.older_usage;
      }
    } catch (e) {
      toasts.error(t('app.error', { error: errorText(e) }));
    } finally {
      chat.loadingOlder = false;
    }
  }

  /** Reconciles the chat with the store after a turn: from the newest row before the turn on
   * (`anchored`), or the newest page (a fork, whose rows are still the source's). */
  private async reload(chat: ChatState, noticesFrom: number, anchored = true): Promise<void> {
    const keep = turnNotices(chat.rows, noticesFrom);
    const latest = this.beginLoad(chat.sessionId);
    try {
      const page = await newestPage(chat.sessionId, anchored ? newestStoredId(chat.rows, noticesFrom) : null);
      if (latest() && !chat.running) applyTail(chat, page, keep, noticesFrom);
    } catch (e) {
      toasts.error(t('app.error', { error: errorText(e) }));
    }
  }

  /** Runs one turn: `start` invokes the command with the event handler; ends with a reload. A
   * command that rejects after its turn already reported `turn_failed` adds nothing more; one
   * that rejects before the user's message was stored (`turn_started`) takes the optimistic row
   * back. `onStored` runs once the message is stored (the sidebar then shows the title storing
   * it may have given the chat); `onTooLong` when the turn was refused
   * because the message cannot fit the model's context (the composer takes its text back). */
  private async runTurn(
    chat: ChatState,
    start: (onEvent: EventHandler) => Promise<unknown>,
    onStored: () => void = () => {},
    onTooLong: () => void = () => {},
  ): Promise<void> {
    const from = chat.rows.length;
    let reported = false;
    let stored = false;
    const events = coalesceDeltas((event) => {
      if (event.type === 'turn_failed') {
        reported = true;
        if (event.error.code === 'message_too_long') onTooLong();
      }
      if (event.type === 'turn_started' && !stored) {
        stored = true;
        onStored();
        // Storing a new chat's first message titled it by its first line: show that at once.
        void app.refreshSessions();
      }
      applyEvent(chat, event);
    });
    try {
      await start(events.push);
    } catch (e) {
      events.flush();
      if (!stored && !reported) {
        dropPendingUser(chat);
        toasts.error(t('app.error', { error: errorText(e) }));
      } else if (chat.running) failTurn(chat, shownError(e));
      else if (!reported) toasts.error(t('app.error', { error: errorText(e) }));
    }
    events.flush();
    chat.running = false;
    await this.reload(chat, Math.min(from, chat.rows.length));
    await app.refreshSessions();
  }

  /** Sends a message; `onStored` runs once the backend has stored it (the composer keeps its
   * text until then, and for good when the send is refused before that); `onTooLong` when the
   * stored message was refused as too long for the model. With `skill` the turn is a run of that
   * skill (stored as a part beside the typed text, its instructions for the model; only what it
   * declares). */
  async send(
    sessionId: string,
    content: ContentPart[],
    onStored: () => void = () => {},
    onTooLong: () => void = () => {},
    skill: string | null = null,
  ): Promise<void> {
    const chat = this.byId[sessionId] ?? (this.byId[sessionId] = newChatState(sessionId));
    if (chat.running || (content.length === 0 && !skill)) return;
    addPendingUser(chat, content, Date.now(), skill);
    const turn = (onEvent: Parameters<typeof api.sendMessage>[2]) =>
      skill ? api.sendSkillMessage(sessionId, skill, content, onEvent) : api.sendMessage(sessionId, content, onEvent);
    await this.runTurn(chat, turn, onStored, onTooLong);
  }

  async regenerate(sessionId: string): Promise<void> {
    const chat = this.byId[sessionId];
    if (!chat || chat.running) return;
    dropLastReply(chat);
    await this.runTurn(chat, (onEvent) => api.regenerate(sessionId, onEvent));
  }

  async cancel(sessionId: string): Promise<void> {
    try {
      await api.cancelTurn(sessionId);
    } catch (e) {
      toasts.error(t('app.error', { error: errorText(e) }));
    }
  }

  /** Forks the chat at `messageId` with new content; the fork opens once the backend names it. */
  async edit(sessionId: string, messageId: number, content: ContentPart[]): Promise<void> {
    const source = this.byId[sessionId];
    if (!source || source.running) return;
    const draft = forkForEdit($state.snapshot(source) as ChatState, messageId, content);
    const slot: { fork: ChatState | null; reported: boolean } = { fork: null, reported: false };
    const adopt = (id: string): ChatState => {
      if (!slot.fork) {
        draft.sessionId = id;
        this.byId[id] = draft;
        slot.fork = this.byId[id];
        app.openChat(id);
        void app.refreshSessions();
      }
      return slot.fork;
    };
    const events = coalesceDeltas((event) => {
      if (event.type === 'turn_started') adopt(event.session_id);
      if (event.type === 'turn_failed') slot.reported = true;
      if (slot.fork) applyEvent(slot.fork, event);
    });
    try {
      const session = await api.editMessage(sessionId, messageId, content, events.push);
      events.flush();
      adopt(session.id);
    } catch (e) {
      events.flush();
      if (slot.fork?.running) failTurn(slot.fork, shownError(e));
      else if (!slot.reported) toasts.error(t('app.error', { error: errorText(e) }));
    }
    if (slot.fork) {
      slot.fork.running = false;
      await this.reload(slot.fork, slot.fork.rows.length, false);
    }
    await app.refreshSessions();
  }

  /** Loads the chat's stored checklist (a turn's `todo_changed` events keep it current). */
  private async loadTodo(sessionId: string): Promise<void> {
    try {
      const list = await api.todoList(sessionId);
      const chat = this.byId[sessionId];
      if (chat && (!chat.todo || (list && list.revision > chat.todo.revision))) chat.todo = list;
    } catch (e) {
      toasts.error(t('app.error', { error: errorText(e) }));
    }
  }

  /** Sends the user's answer to the question the chat's turn waits on. */
  async answerQuestion(sessionId: string, answer: string): Promise<void> {
    const question = this.byId[sessionId]?.question;
    const text = answer.trim();
    if (!question || question.sent || !text) return;
    question.sent = text;
    try {
      await api.answerQuestion(question.requestId, text);
    } catch (e) {
      question.sent = null;
      toasts.error(t('app.error', { error: errorText(e) }));
    }
  }

  /** Sends the form card's answer; a refusal (a field that does not fit) stays on the card. */
  async answerForm(sessionId: string, answer: FormAnswer): Promise<void> {
    const pending = this.byId[sessionId]?.form;
    if (!pending || pending.sent) return;
    pending.sent = true;
    pending.error = null;
    try {
      await api.answerForm(pending.requestId, answer);
    } catch (e) {
      pending.sent = false;
      pending.error = errorText(e);
    }
  }

  async resolveApproval(card: ToolCard, decision: ApprovalDecision): Promise<void> {
    const approval = card.approval;
    if (!approval || approval.decision || approval.sent) return;
    approval.sent = decision;
    try {
      await api.resolveApproval(approval.requestId, decision);
    } catch (e) {
      approval.sent = null;
      toasts.error(t('app.error', { error: errorText(e) }));
    }
  }
}

export const chats = new Chats();
