// Removals a page lets the user undo: the item is hidden at once, a toast offers Undo for the
// same window as a deleted chat, and the real removal runs when the window closes — or at once
// when the page goes away (left, or the window closing).
import { t } from '../i18n/index.svelte';
import { PendingDeletes, UNDO_WINDOW_MS } from '../sessions';
import { toasts } from './toasts.svelte';

export class UndoableRemovals<K extends string | number> {
  /** Keys removed but still inside their undo window (or being removed). */
  hidden = $state<K[]>([]);
  private readonly deletes = new PendingDeletes();

  /** Hides `key` now and says `message` with Undo; `commit` removes it when the window closes
   * (it reloads the list), after which the key is no longer hidden. */
  remove(key: K, message: string, commit: () => Promise<unknown>): void {
    this.hidden.push(key);
    const id = String(key);
    const toastId = toasts.show(message, {
      action: {
        label: t('sidebar.undo'),
        run: () => {
          if (this.deletes.undo(id)) this.show(key);
          toasts.dismiss(toastId);
        },
      },
      ms: UNDO_WINDOW_MS,
    });
    this.deletes.schedule(id, () => void commit().finally(() => this.show(key)));
  }

  /** Carries out the removals still waiting when the page goes away; returns the function that
   * does it and stops watching (for `onMount`). */
  flushOnLeave(): () => void {
    const flush = () => this.deletes.flush();
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }

  private show(key: K): void {
    this.hidden = this.hidden.filter((h) => h !== key);
  }
}
