// The MCP servers as they run, for Settings → MCP servers and the composer's `/mcp`: fetched
// while a view that shows them is open (every second, so starting → ready shows up), and the
// chats whose `/mcp` panel is open, and the resources chosen there that wait for that chat's composer.
import { api, errorText } from '../api';
import type { McpServerView } from '../bindings/McpServerView';
import { t } from '../i18n/index.svelte';
import { toasts } from './toasts.svelte';

const POLL_MS = 1000;

/** A resource chosen in a chat's `/mcp` panel, to be attached by its composer. */
export interface PendingResource {
  sessionId: string;
  server: string;
  uri: string;
}

class McpState {
  servers = $state<McpServerView[]>([]);
  /** Chats whose `/mcp` panel is open. */
  panels = $state<string[]>([]);
  /** Resources chosen in a `/mcp` panel, not yet attached. */
  pending = $state<PendingResource[]>([]);
  private watchers = 0;
  private timer: ReturnType<typeof setInterval> | null = null;

  async refresh(): Promise<void> {
    try {
      this.servers = await api.mcpServers();
    } catch (e) {
      toasts.error(t('app.error', { error: errorText(e) }));
    }
  }

  /** Keeps `servers` fresh until the returned function is called. */
  watch(): () => void {
    this.watchers++;
    void this.refresh();
    this.timer ??= setInterval(() => void this.refresh(), POLL_MS);
    return () => {
      this.watchers--;
      if (this.watchers === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  view(name: string): McpServerView | undefined {
    return this.servers.find((s) => s.name === name);
  }

  openPanel(sessionId: string): void {
    if (!this.panels.includes(sessionId)) this.panels = [...this.panels, sessionId];
  }

  attachResource(sessionId: string, server: string, uri: string): void {
    this.pending = [...this.pending, { sessionId, server, uri }];
  }

  /** The resources waiting for `sessionId`'s composer, taken out. */
  takePending(sessionId: string): PendingResource[] {
    const mine = this.pending.filter((p) => p.sessionId === sessionId);
    if (mine.length) this.pending = this.pending.filter((p) => p.sessionId !== sessionId);
    return mine;
  }

  closePanel(sessionId: string): void {
    this.panels = this.panels.filter((id) => id !== sessionId);
  }
}

export const mcp = new McpState();
