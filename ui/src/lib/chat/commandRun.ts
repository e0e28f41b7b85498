// A command's, a code run's or a skill script's card: how the run ended, in words and as a tone,
// and the lines of a stream shown while it is collapsed.
import type { ToolView } from '../bindings/ToolView';
import { num, t } from '../i18n/index.svelte';

export type CommandRunView = Extract<ToolView, { kind: 'command_run' }>;

/** Output lines of a stream shown before the card offers "show all". */
export const OUTPUT_COLLAPSED_LINES = 20;

/** How the run ended, in the interface's language, and whether that was a success. */
export function runOutcome(view: CommandRunView): { text: string; ok: boolean } {
  const seconds = num(Math.round(view.duration_ms / 100) / 10);
  if (view.timed_out) return { text: t('command.timedOut', { seconds }), ok: false };
  if (view.signal !== null) return { text: t('command.signal', { signal: num(view.signal) }), ok: false };
  if (view.exit_code === null) return { text: t('command.noExitCode'), ok: false };
  return { text: t('command.exitCode', { code: num(view.exit_code) }), ok: view.exit_code === 0 };
}

/** The lines of `text` (without the break after the last) and, collapsed, the first
 * OUTPUT_COLLAPSED_LINES of them. */
export function outputLines(text: string, expanded: boolean): { shown: string; total: number } {
  const lines = text.replace(/\n$/, '').split('\n');
  const total = text === '' ? 0 : lines.length;
  const shown = expanded || total <= OUTPUT_COLLAPSED_LINES ? lines : lines.slice(0, OUTPUT_COLLAPSED_LINES);
  return { shown: total === 0 ? '' : shown.join('\n'), total };
}
