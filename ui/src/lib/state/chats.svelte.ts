// Per-session chat state and the turn controller: sends, stops, regenerates and edits turns,
// feeding their streamed events through the reducer, and answers approval requests.
import { api, errorText, type EventHandler } from '../api';
import type { ApprovalDecision } from '../bindings/ApprovalDecision';
import type { ContentPart } from '../bindings/ContentPart';
import type { EngineEvent } from '../bindings/EngineEvent';
import { t } from '../i18n/index.svelte';
import {
  addPendingUser,
  applyEvent,
  dropLastReply,
  failTurn,
  forkForEdit,
  newChatState,
  type ChatState,
} from '../chat/reducer';
import { buildRows, carryApprovals, commonPrefix, type ChatRow, type ToolCard } from '../chat/rows';
import { app } from './app.svelte';
import { toasts } from './toasts.svelte';

/** Notices that are not stored and should survive the reload that follows a turn. */
function turnNotices(rows: ChatRow[], from: number): ChatRow[] {
  return rows.slice(from).filter((r) => r.kind === 'notice' && r.notice !== 'compacted');
}

/** Brings `chat.rows` in line with rows rebuilt from the store, replacing only the rows after
 * the part that is unchanged (approval decisions, which are not stored, are carried over). */
function replaceRows(chat: ChatState, fresh: ChatRow[], extra: ChatRow[] = [], settled = 0): void {
  const keep = commonPrefix(chat.rows, fresh, settled);
  const previous = $state.snapshot(chat.rows.slice(keep)) as ChatRow[];
  const tail = [...carryApprovals(previous, fresh.slice(keep)), ...extra];
  chat.rows.splice(keep, chat.rows.length - keep, ...tail);
}

class Chats {
  byId = $state<Record<string, ChatState>>({});

  get(sessionId: string): ChatState | undefined {
    return this.byId[sessionId];
  }

  /** Loads a chat's messages unless a turn is streaming into it. */
  async open(sessionId: string): Promise<void> {
    const existing = this.byId[sessionId];
    if (existing?.running) return;
    try {
      const messages = await api.listMessages(sessionId);
      const current = this.byId[sessionId];
      if (current?.running) return;
      if (current) replaceRows(current, buildRows(messages));
      else this.byId[sessionId] = newChatState(sessionId, buildRows(messages));
    } catch (e) {
      toasts.error(t('app.error', { error: errorText(e) }));
    }
  }

  private async reload(chat: ChatState, noticesFrom: number): Promise<void> {
    const keep = turnNotices(chat.rows, noticesFrom);
    try {
      const messages = await api.listMessages(chat.sessionId);
      if (!chat.running) replaceRows(chat, buildRows(messages), keep, noticesFrom);
    } catch (e) {
      toasts.error(t('app.error', { error: errorText(e) }));
    }
  }

  /** Runs one turn: `start` invokes the command with the event handler; ends with a reload. A
   * command that rejects after its turn already reported `turn_failed` adds nothing more. */
  private async runTurn(chat: ChatState, start: (onEvent: EventHandler) => Promise<unknown>): Promise<void> {
    const from = chat.rows.length;
    let reported = false;
    try {
      await start((event: EngineEvent) => {
        if (event.type === 'turn_failed') reported = true;
        applyEvent(chat, event);
      });
    } catch (e) {
      if (chat.running) failTurn(chat, errorText(e));
      else if (!reported) toasts.error(t('app.error', { error: errorText(e) }));
    }
    chat.running = false;
    await this.reload(chat, Math.min(from, chat.rows.length));
    await app.refreshSessions();
  }

  async send(sessionId: string, content: ContentPart[]): Promise<void> {
    const chat = this.byId[sessionId] ?? (this.byId[sessionId] = newChatState(sessionId));
    if (chat.running || content.length === 0) return;
    addPendingUser(chat, content);
    await this.runTurn(chat, (onEvent) => api.sendMessage(sessionId, content, onEvent));
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
    try {
      const session = await api.editMessage(sessionId, messageId, content, (event) => {
        if (event.type === 'turn_started') adopt(event.session_id);
        if (event.type === 'turn_failed') slot.reported = true;
        if (slot.fork) applyEvent(slot.fork, event);
      });
      adopt(session.id);
    } catch (e) {
      if (slot.fork?.running) failTurn(slot.fork, errorText(e));
      else if (!slot.reported) toasts.error(t('app.error', { error: errorText(e) }));
    }
    if (slot.fork) {
      slot.fork.running = false;
      await this.reload(slot.fork, slot.fork.rows.length);
    }
    await app.refreshSessions();
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
