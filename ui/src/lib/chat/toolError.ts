// A failed tool call's error as the chat card shows it: the kind in the UI language (and the
// argument at fault), from the `{"error": {"kind", "message", "field"?}}` result the model read.
import type { MessageKey } from '../i18n/en';
import { t } from '../i18n/index.svelte';

/** The kinds of tool error (`ErrorKind` in the tools crate), each with its words. */
const KINDS = [
  'invalid_arguments',
  'not_permitted',
  'denied_by_user',
  'not_found',
  'too_large',
  'timeout',
  'rate_limited',
  'network',
  'blocked_address',
  'delivery_failed',
  'unavailable',
  'cancelled',
  'failed',
  'internal',
] as const;
type Kind = (typeof KINDS)[number];

export interface ToolErrorView {
  /** The kind in words; a kind this UI does not know says the call failed. */
  headline: string;
  /** The tool's own message, as the model read it. */
  message: string;
}

function isKind(kind: unknown): kind is Kind {
  return typeof kind === 'string' && (KINDS as readonly string[]).includes(kind);
}

/** The error of a failed call's result, or null when the result is not a tool error. */
export function toolErrorOf(result: { content: string; is_error: boolean } | null | undefined): ToolErrorView | null {
  if (!result?.is_error) return null;
  let error: { kind?: unknown; message?: unknown; field?: unknown } | undefined;
  try {
    error = (JSON.parse(result.content) as { error?: typeof error }).error;
  } catch {
    return null;
  }
  if (!error || typeof error !== 'object') return null;
  const key: MessageKey = isKind(error.kind) ? `toolError.${error.kind}` : 'toolError.failed';
  const kind = t(key);
  const headline = typeof error.field === 'string' && error.field ? t('toolError.withField', { kind, field: error.field }) : kind;
  return { headline, message: typeof error.message === 'string' ? error.message : '' };
}
