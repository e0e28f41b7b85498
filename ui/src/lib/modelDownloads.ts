// Model downloads of Settings → Models: the form's source read as a URL or a Hugging Face
// repository and file, the SHA-256 check, and how a download's progress reads (share done,
// speed, time left).
import type { ModelDownload } from './bindings/ModelDownload';
import type { StartDownloadParams } from './bindings/StartDownloadParams';

export type { ModelDownload };

/** Why the form cannot start a download (an i18n key), or null when it can. */
export type DownloadFormProblem = 'models.download.noSource' | 'models.download.badSource' | 'models.download.noFile' | 'models.download.badSha';

/** Whether `source` is an http(s) URL (else it must be a Hugging Face `owner/repo`). */
export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source.trim());
}

/** The params to start a download of what the form holds, or the problem with it. */
export function downloadParams(source: string, file: string, sha256: string): StartDownloadParams | DownloadFormProblem {
  const s = source.trim();
  const f = file.trim();
  const sha = sha256.trim();
  if (!s) return 'models.download.noSource';
  if (!isUrl(s) && !/^[\w.-]+\/[\w.-]+$/.test(s)) return 'models.download.badSource';
  if (!isUrl(s) && !f) return 'models.download.noFile';
  if (sha && !/^[0-9a-f]{64}$/i.test(sha)) return 'models.download.badSha';
  return { source: s, file: isUrl(s) ? null : f, sha256: sha || null };
}

/** The share downloaded, from 0 to 1, or null while the size is unknown. */
export function downloadFraction(d: ModelDownload): number | null {
  return d.total ? Math.min(1, d.done / d.total) : null;
}

/** How long is left, as an i18n key and its parameters. */
export function timeLeft(seconds: number): { key: 'models.download.seconds' | 'models.download.minutes' | 'models.download.hours'; params: Record<string, number> } {
  if (seconds < 60) return { key: 'models.download.seconds', params: { n: Math.max(1, Math.round(seconds)) } };
  if (seconds < 3600) return { key: 'models.download.minutes', params: { n: Math.round(seconds / 60) } };
  const minutes = Math.round(seconds / 60);
  return { key: 'models.download.hours', params: { h: Math.floor(minutes / 60), m: minutes % 60 } };
}

/** `list` with `d` in place of the download of the same id (added when new); a finished or
 * cancelled download leaves it. */
export function withDownload(list: readonly ModelDownload[], d: ModelDownload): ModelDownload[] {
  const rest = list.filter((x) => x.id !== d.id);
  if (d.state === 'finished' || d.state === 'cancelled') return rest;
  const at = list.findIndex((x) => x.id === d.id);
  return at < 0 ? [...rest, d] : list.map((x) => (x.id === d.id ? d : x));
}
