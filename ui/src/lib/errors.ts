// Turns what a command or a failed turn reports into text in the UI's language: typed errors
// (`AppError`, a stable code with its parameters) are translated; anything else is shown as is.
import type { AppError } from './bindings/AppError';
import { t } from './i18n/index.svelte';
import type { MessageKey } from './i18n/en';
import type { Params } from './i18n/format';

/** The message of every error code: a code without one fails the type check. */
const keys: { [C in AppError['code']]: MessageKey } = {
  no_provider: 'error.no_provider',
  no_model: 'error.no_model',
  empty_message: 'error.empty_message',
  unknown_session: 'error.unknown_session',
  busy: 'error.busy',
  busy_elsewhere: 'error.busy_elsewhere',
  approval_gone: 'error.approval_gone',
  question_gone: 'error.question_gone',
  form_field_missing: 'error.form_field_missing',
  form_field_invalid: 'error.form_field_invalid',
  nothing_to_regenerate: 'error.nothing_to_regenerate',
  provider_id_taken: 'error.provider_id_taken',
  provider_id_reserved: 'error.provider_id_reserved',
  not_http_url: 'error.not_http_url',
  bad_local_host: 'error.bad_local_host',
  empty_key: 'error.empty_key',
  not_a_folder: 'error.not_a_folder',
  artifact_not_found: 'error.artifact_not_found',
  artifact_unreadable: 'error.artifact_unreadable',
  artifact_not_saved: 'error.artifact_not_saved',
  knowledge_failed: 'error.knowledge_failed',
  not_in_knowledge: 'error.not_in_knowledge',
  cannot_open: 'error.cannot_open',
  memory_gone: 'error.memory_gone',
  contradiction_resolved: 'error.contradiction_resolved',
  not_a_party: 'error.not_a_party',
  not_an_image: 'error.not_an_image',
  bad_base64: 'error.bad_base64',
  image_too_large: 'error.image_too_large',
  settings: 'error.settings',
  keychain_unavailable: 'error.keychain_unavailable',
  keychain_failed: 'error.keychain_failed',
  model_auth: 'error.model_auth',
  key_required: 'error.key_required',
  model_rate_limited: 'error.model_rate_limited',
  context_too_long: 'error.context_too_long',
  model_rejected: 'error.model_rejected',
  model_server: 'error.model_server',
  model_unreachable: 'error.model_unreachable',
  model_protocol: 'error.model_protocol',
  local_model_missing: 'error.local_model_missing',
  local_model_unusable: 'error.local_model_unusable',
  local_model_exists: 'error.local_model_exists',
  download_failed: 'error.download_failed',
  download_refused: 'error.download_refused',
  download_stalled: 'error.download_stalled',
  download_checksum: 'error.download_checksum',
  disk_too_small: 'error.disk_too_small',
  download_cancelled: 'error.download_cancelled',
  download_running: 'error.download_running',
  local_worker_crashed: 'error.local_worker_crashed',
  probably_too_long: 'error.probably_too_long',
  message_too_long: 'error.message_too_long',
  stalled: 'error.stalled',
  run_stopped_at_iterations: 'error.run_stopped_at_iterations',
  run_cancelled: 'error.run_cancelled',
  run_without_answer: 'error.run_without_answer',
  run_crashed: 'error.run_crashed',
  store: 'error.store',
  skill: 'error.skill',
  updates_off: 'error.updates_off',
  no_pending_update: 'error.no_pending_update',
  update_failed: 'error.update_failed',
  run_interrupted: 'error.run_interrupted',
  file_system: 'error.file_system',
  mcp_servers: 'error.mcp_servers',
  unknown_mcp_server: 'error.unknown_mcp_server',
  bad_channel: 'error.bad_channel',
  delivery_failed: 'error.delivery_failed',
  not_found: 'error.not_found',
  invalid_value: 'error.invalid_value',
  bad_schedule: 'error.bad_schedule',
  job_rejected: 'error.job_rejected',
  browser_failed: 'error.browser_failed',
  terminal_failed: 'error.terminal_failed',
  internal: 'error.internal',
  other: 'error.other',
};

export function isAppError(value: unknown): value is AppError {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string'
    && Object.prototype.hasOwnProperty.call(keys, (value as { code: string }).code);
}

/** The text of a typed error in the current language. */
export function appErrorText(error: AppError): string {
  const params = 'params' in error ? (error.params as Params) : undefined;
  return t(keys[error.code], params);
}

/** An error as a chat row shows it: the sentence in the UI language, and the technical detail
 * the server or network library gave (in English, shown folded) apart from it. */
export interface ShownError {
  text: string;
  detail: string | null;
}

/** `error` split into its sentence and its technical `detail` parameter, if it has one. */
export function shownError(error: unknown): ShownError {
  if (!isAppError(error)) return { text: errorText(error), detail: null };
  const params = ('params' in error ? error.params : {}) as Params & { detail?: unknown };
  if (typeof params.detail !== 'string' || params.detail === '') return { text: appErrorText(error), detail: null };
  const text = t(keys[error.code], { ...params, detail: '' }).trim().replace(/[:：]$/, '');
  return { text, detail: params.detail };
}

/** A stored error shown in the viewer's language (see `storedErrorText`), split as `shownError`. */
export function storedError(code: AppError | null | undefined, text: string | null): ShownError | null {
  if (code) return shownError(code);
  return text === null ? null : { text, detail: null };
}

/** The text of anything a command rejected with. */
/** A stored error in the viewer's language: its typed form when the row has one, else the
 * English text older rows kept. */
export function storedErrorText(code: AppError | null | undefined, text: string | null): string | null {
  return code ? appErrorText(code) : text;
}

export function errorText(error: unknown): string {
  if (isAppError(error)) return appErrorText(error);
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  return JSON.stringify(error);
}
