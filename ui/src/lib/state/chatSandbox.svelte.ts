// What each chat chose about its commands' sandbox (sandboxed commands without asking, or no
// sandbox) and what this computer's sandbox gives: for approval cards and the chat's banner.
import { api, errorText } from '../api';
import type { ApprovalDecision } from '../bindings/ApprovalDecision';
import type { ChatSandbox } from '../bindings/ChatSandbox';
import type { SandboxStatus } from '../bindings/SandboxStatus';
import { t } from '../i18n/index.svelte';
import { toasts } from './toasts.svelte';

const NOTHING: ChatSandbox = { sandboxed_without_asking: false, unsandboxed: false };

class ChatSandboxes {
  byId = $state<Record<string, ChatSandbox>>({});
  /** What a command gets on this computer (`null` until asked). */
  status = $state<SandboxStatus | null>(null);
  #statusAsked = false;

  of(sessionId: string): ChatSandbox {
    return this.byId[sessionId] ?? NOTHING;
  }

  /** Reads the chat's choices from the backend (they last while Hearth runs). */
  async load(sessionId: string): Promise<void> {
    try {
      this.byId[sessionId] = await api.chatSandbox(sessionId);
    } catch {
      // The banner stays hidden; the next approval card offers the choices again.
    }
  }

  /** Asks once what this computer's sandbox gives. */
  async loadStatus(): Promise<void> {
    if (this.#statusAsked) return;
    this.#statusAsked = true;
    try {
      this.status = await api.sandboxStatus();
    } catch {
      this.#statusAsked = false;
    }
  }

  /** Notes what an answer sent on an approval card chose for its chat. */
  answered(sessionId: string, decision: ApprovalDecision): void {
    if (decision === 'allow_sandboxed_in_chat') {
      this.byId[sessionId] = { ...this.of(sessionId), sandboxed_without_asking: true };
    } else if (decision === 'allow_unsandboxed_in_chat') {
      this.byId[sessionId] = { ...this.of(sessionId), unsandboxed: true };
    }
  }

  /** Turns one of the chat's choices off. */
  async turnOff(sessionId: string, choice: keyof ChatSandbox): Promise<void> {
    const next = { ...this.of(sessionId), [choice]: false };
    try {
      await api.setChatSandbox(sessionId, next);
      this.byId[sessionId] = next;
    } catch (e) {
      toasts.error(t('app.error', { error: errorText(e) }));
    }
  }
}

export const chatSandboxes = new ChatSandboxes();
