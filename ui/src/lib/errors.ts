// Engine errors the UI shows in the user's language. The engine reports them as English text
// (`LlmError`'s messages); each one translated here is recognised by its fixed wording, and its
// parameters are read back out of it. Anything else is shown as it came.
import type { MessageKey } from './i18n/en';

export interface TranslatedError {
  key: MessageKey;
  params: Record<string, string>;
}

/** `LlmError::KeyRequired`: a server asked without a key answered 401/403. */
const KEY_REQUIRED =
  /this server wants an API key \((\d{3})\): add one to provider '([^']*)' in Settings → Providers, or run `hearth-cli keys set [^`]*`, or set HEARTH_API_KEY or (\w+): ?([\s\S]*)$/;

/** The message key and parameters for an engine error the UI translates, or null. */
export function translatedError(text: string): TranslatedError | null {
  const m = KEY_REQUIRED.exec(text);
  if (!m) return null;
  return { key: 'errors.keyRequired', params: { status: m[1], provider: m[2], envVar: m[3], detail: m[4] } };
}
