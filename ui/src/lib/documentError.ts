// Why a document could not be read, in the UI language, from the reader's typed error (an older
// index's English sentence is shown as it was stored), with the parser's own technical reason
// apart.
import type { DocumentError } from './bindings/DocumentError';
import type { FileProblem } from './bindings/FileProblem';
import type { MessageKey } from './i18n/en';
import { num, t } from './i18n/index.svelte';

const KINDS: Record<string, MessageKey> = { page: 'docerr.kind.page', slide: 'docerr.kind.slide', sheet: 'docerr.kind.sheet' };

/** The sentence for `error`, and the reader's technical reason (English) when it gave one. */
export function documentErrorText(error: DocumentError): { text: string; detail: string | null } {
  const said = (key: MessageKey, params?: Record<string, string>, detail: string | null = null) => ({ text: t(key, params), detail });
  switch (error.code) {
    case 'unsupported':
      return said('docerr.unsupported', { format: error.params });
    case 'too_large':
      return said('docerr.too_large', { size: num(error.params.size), limit: num(error.params.limit) });
    case 'zip_bomb':
      return said('docerr.zip_bomb', { format: error.params.format, unpacked: num(error.params.unpacked), limit: num(error.params.limit) });
    case 'corrupt':
      return said('docerr.corrupt', { format: error.params.format }, error.params.reason);
    case 'timeout':
      return said('docerr.timeout', { seconds: num(error.params) });
    case 'out_of_memory':
      return said('docerr.out_of_memory', { limit: num(error.params.limit_mb) });
    case 'crashed':
    case 'reader_unavailable':
    case 'unreadable':
      return said(`docerr.${error.code}`, undefined, error.params.reason);
    case 'panicked':
      return said('docerr.panicked', undefined, error.params);
    case 'not_a_file':
      return said('docerr.not_a_file', undefined, error.params.kind);
    case 'no_such_unit':
      return said('docerr.no_such_unit', { kind: t(KINDS[error.params.kind] ?? 'docerr.kind.document'), asked: error.params.asked, count: num(error.params.count) });
    default:
      return said(`docerr.${error.code}`);
  }
}

/** Why a knowledge file is unreadable: a typed error worded here, an older sentence as stored. */
export function fileProblemText(problem: FileProblem): { text: string; detail: string | null } {
  return typeof problem === 'string' ? { text: problem, detail: null } : documentErrorText(problem);
}
