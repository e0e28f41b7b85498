// The model downloads Settings → Models shows: listed once, then kept up to date from the
// `models://download` events; started from the download form or a recommended model, paused,
// resumed and cancelled by id, and a finished one handed to `onFinished`.
import { api, errorText } from '../api';
import { onEvent } from '../events';
import type { StartDownloadParams } from '../bindings/StartDownloadParams';
import { t } from '../i18n/index.svelte';
import { withDownload, type ModelDownload } from '../modelDownloads';
import { toasts } from './toasts.svelte';

export class ModelDownloads {
  items = $state<ModelDownload[]>([]);
  /** Why the last start was refused, in the user's language. */
  startError = $state('');
  starting = $state(false);
  private readonly onFinished: (d: ModelDownload) => void;

  constructor(onFinished: (d: ModelDownload) => void) {
    this.onFinished = onFinished;
  }

  /** Lists the downloads and follows their changes; returns the stop. */
  follow(): () => void {
    const stop = onEvent('models://download', (d) => this.apply(d));
    void api
      .modelDownloads()
      .then((list) => {
        for (const d of list) this.items = withDownload(this.items, d);
      })
      .catch((e) => (this.startError = errorText(e)));
    return stop;
  }

  apply(d: ModelDownload): void {
    this.items = withDownload(this.items, d);
    if (d.state === 'finished') this.onFinished(d);
  }

  /** Whether the file `name` is being downloaded (or waits paused or failed). */
  has(fileName: string): boolean {
    return this.items.some((d) => d.file_name === fileName);
  }

  /** Starts a download; false (with `startError` set) when it was refused. */
  async start(params: StartDownloadParams): Promise<boolean> {
    this.startError = '';
    this.starting = true;
    try {
      const d = await api.startModelDownload(params);
      // Its events may have come first: only a download not listed yet is added.
      if (!this.items.some((x) => x.id === d.id)) this.items = withDownload(this.items, d);
      return true;
    } catch (e) {
      this.startError = errorText(e);
      return false;
    } finally {
      this.starting = false;
    }
  }

  pause(d: ModelDownload): Promise<void> {
    return this.act(() => api.pauseModelDownload(d.id));
  }

  resume(d: ModelDownload): Promise<void> {
    return this.act(() => api.resumeModelDownload(d.id));
  }

  cancel(d: ModelDownload): Promise<void> {
    return this.act(() => api.cancelModelDownload(d.id));
  }

  private async act(call: () => Promise<void>): Promise<void> {
    try {
      await call();
    } catch (e) {
      toasts.error(t('app.error', { error: errorText(e) }));
    }
  }
}
