// App-wide state: settings, the session list (with undoable deletes) and which screen is shown.
import { api, errorText } from '../api';
import type { ParkedWindow } from '../bindings/ParkedWindow';
import type { Session } from '../bindings/Session';
import type { Settings } from '../bindings/Settings';
import { draftOf, keepDraft } from '../drafts';
import { setLanguage, t } from '../i18n/index.svelte';
import { isJobRun, PendingDeletes, sortSessions, UNDO_WINDOW_MS } from '../sessions';
import { applyTheme } from '../theme';
import { toasts } from './toasts.svelte';

/** A section of Settings that can be opened directly (the id of its element). */
export type SettingsSection = 'models';

export type View =
  | { kind: 'home' }
  | { kind: 'chat'; sessionId: string; focusMessageId: number | null }
  | { kind: 'settings'; addProvider: boolean; section: SettingsSection | null }
  | { kind: 'jobs' }
  | { kind: 'memory' }
  | { kind: 'skills' }
  | { kind: 'knowledge' };

class AppState {
  ready = $state(false);
  settings = $state<Settings | null>(null);
  sessions = $state<Session[]>([]);
  /** Sessions deleted but still inside their undo window. */
  hidden = $state<string[]>([]);
  view = $state<View>({ kind: 'home' });

  /** The chats of the sidebar: not those inside their undo window, nor the sessions of scheduled
   * job runs (reached from the job's history and the chat it delivers to). */
  readonly visibleSessions = $derived(
    sortSessions(this.sessions.filter((s) => !this.hidden.includes(s.id) && !isJobRun(s))),
  );
  readonly hasProvider = $derived((this.settings?.providers.length ?? 0) > 0);

  private readonly deletes = new PendingDeletes();

  async init(): Promise<void> {
    // A window built again after its teardown in the tray gets back what the last one parked.
    const parked = api.unparkWindow().catch(() => null);
    try {
      const [settings, sessions] = await Promise.all([api.getSettings(), api.listSessions()]);
      this.applySettings(settings);
      this.sessions = sessions;
    } catch (e) {
      toasts.error(t('app.error', { error: errorText(e) }));
    }
    await this.unpark(await parked);
    this.ready = true;
  }

  private async unpark(parked: ParkedWindow | null): Promise<void> {
    if (!parked) return;
    if (parked.session_id) {
      keepDraft(parked.session_id, parked.draft ?? '');
      await this.revealChat(parked.session_id);
    }
    if (parked.new_chat) await this.newChat();
  }

  /** What the hidden window hands over before it is torn down (see `api.parkWindow`). */
  parked(): ParkedWindow {
    const sessionId = this.view.kind === 'chat' ? this.view.sessionId : null;
    return { session_id: sessionId, draft: sessionId ? draftOf(sessionId) || null : null, new_chat: false };
  }

  private applySettings(settings: Settings): void {
    this.settings = settings;
    setLanguage(settings.language);
    applyTheme(settings.theme);
  }

  async saveSettings(next: Settings): Promise<boolean> {
    try {
      await api.saveSettings(next);
      this.applySettings(next);
      return true;
    } catch (e) {
      toasts.error(t('app.error', { error: errorText(e) }));
      return false;
    }
  }

  async refreshSessions(): Promise<void> {
    try {
      this.sessions = await api.listSessions();
    } catch (e) {
      toasts.error(t('app.error', { error: errorText(e) }));
    }
  }

  openChat(sessionId: string, focusMessageId: number | null = null): void {
    this.view = { kind: 'chat', sessionId, focusMessageId };
  }

  /** Opens a chat the backend points at (a clicked notification), listing it first if it is new. */
  async revealChat(sessionId: string): Promise<void> {
    if (!this.sessions.some((s) => s.id === sessionId)) await this.refreshSessions();
    this.openChat(sessionId);
  }

  /** Opens Settings, with the new provider's form open, or scrolled to `section`. */
  openSettings(addProvider = false, section: SettingsSection | null = null): void {
    this.view = { kind: 'settings', addProvider, section };
  }

  openJobs(): void {
    this.view = { kind: 'jobs' };
  }

  openMemory(): void {
    this.view = { kind: 'memory' };
  }

  openSkills(): void {
    this.view = { kind: 'skills' };
  }

  openKnowledge(): void {
    this.view = { kind: 'knowledge' };
  }

  /** Opens a new chat; the backend hands back an empty "New chat" nobody used instead of
   * making a second one, so it replaces its row rather than adding one. */
  async newChat(): Promise<void> {
    try {
      const session = await api.createSession(null);
      this.sessions = [...this.sessions.filter((s) => s.id !== session.id), session];
      this.openChat(session.id);
    } catch (e) {
      toasts.error(t('app.error', { error: errorText(e) }));
    }
  }

  private patch(id: string, change: Partial<Session>): void {
    const s = this.sessions.find((x) => x.id === id);
    if (s) Object.assign(s, change);
  }

  private async update(id: string, change: Partial<Session>, call: () => Promise<void>): Promise<void> {
    const before = this.sessions.find((x) => x.id === id);
    const snapshot = before ? { ...before } : null;
    this.patch(id, change);
    try {
      await call();
    } catch (e) {
      if (snapshot) this.patch(id, snapshot);
      toasts.error(t('app.error', { error: errorText(e) }));
    }
  }

  rename(id: string, title: string): Promise<void> {
    return this.update(id, { title }, () => api.renameSession(id, title));
  }

  setPinned(id: string, pinned: boolean): Promise<void> {
    return this.update(id, { pinned }, () => api.setSessionPinned(id, pinned));
  }

  setModel(id: string, model: string | null): Promise<void> {
    return this.update(id, { model }, () => api.setSessionModel(id, model));
  }

  setWorkspace(id: string, workspace: string): Promise<void> {
    return this.update(id, { workspace }, () => api.setSessionWorkspace(id, workspace));
  }

  /** Hides the session now; the backend delete runs when the undo window closes. */
  remove(session: Session): void {
    this.hidden.push(session.id);
    if (this.view.kind === 'chat' && this.view.sessionId === session.id) this.view = { kind: 'home' };
    const toastId = toasts.show(t('sidebar.deleted', { title: session.title || t('sidebar.untitled') }), {
      action: { label: t('sidebar.undo'), run: () => this.undoRemove(session.id, toastId) },
      ms: UNDO_WINDOW_MS,
    });
    this.deletes.schedule(session.id, () => void this.commitRemove(session.id));
  }

  private undoRemove(id: string, toastId: number): void {
    if (this.deletes.undo(id)) this.hidden = this.hidden.filter((h) => h !== id);
    toasts.dismiss(toastId);
  }

  private async commitRemove(id: string): Promise<void> {
    try {
      await api.deleteSession(id);
      this.sessions = this.sessions.filter((s) => s.id !== id);
    } catch (e) {
      toasts.error(t('app.error', { error: errorText(e) }));
    }
    this.hidden = this.hidden.filter((h) => h !== id);
  }

  /** Runs deletes still waiting for their undo window (the window is closing). */
  flushDeletes(): void {
    this.deletes.flush();
  }
}

export const app = new AppState();
