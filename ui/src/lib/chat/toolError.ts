// A failed tool call's error as the chat card shows it: the kind in the UI language (and the
// argument at fault), from the card's typed failure view.
import { t } from '../i18n/index.svelte';
import type { FailureView } from './toolViews';

export interface ToolErrorText {
  /** The kind in words. */
  headline: string;
  /** The tool's own message, as the model read it. */
  message: string;
}

/** The words of a failure view. */
export function toolErrorText(view: FailureView): ToolErrorText {
  const kind = t(`toolError.${view.error}`);
  const headline = view.field ? t('toolError.withField', { kind, field: view.field }) : kind;
  return { headline, message: view.message };
}
