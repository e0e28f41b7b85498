// The knowledge base in the UI: a citation's place in the UI language, what to say when one
// opened only its file, and the progress of an indexing pass.
import type { Citation } from './bindings/Citation';
import type { Opened } from './bindings/Opened';
import type { Progress } from './bindings/Progress';
import type { MessageKey } from './i18n/en';
import { num, t } from './i18n/index.svelte';

/** The file's name and place of a citation in the UI language (`budget.md，第 1–4 行`), from its
 * typed fields rather than the engine's English `citation`. */
export function citationText(hit: Citation): string {
  const name = hit.file.split(/[\\/]/).pop() || hit.file;
  const first = num(hit.first);
  const place =
    hit.unit === 'line'
      ? hit.first === hit.last
        ? t('knowledge.place.line', { n: first })
        : t('knowledge.place.lines', { first, last: num(hit.last) })
      : hit.unit === 'page' || hit.unit === 'slide' || hit.unit === 'sheet'
        ? t(`knowledge.place.${hit.unit}`, { n: first })
        : `${hit.unit} ${first}`;
  const labelled = hit.label && hit.unit === 'sheet' ? t('knowledge.place.labelled', { place, label: hit.label }) : place;
  return t('knowledge.citation', { name, place: labelled });
}

/** What to tell the user when a citation's file opened in its default app, not at its place
 * (null when it opened there). */
export function openedOnlyKey(hit: Citation, opened: Opened): MessageKey | null {
  if (opened === 'at_place') return null;
  if (opened === 'no_viewer' && (hit.unit === 'page' || hit.unit === 'line')) return `knowledge.openedOnly.${hit.unit}`;
  if (hit.unit === 'slide' || hit.unit === 'sheet') return `knowledge.openedOnly.${hit.unit}`;
  return 'knowledge.openedOnly.other';
}

/** The share of a pass done, 0 to 1 (1 when there is nothing to do). */
export function fraction(progress: Progress): number {
  return progress.total === 0 ? 1 : Math.min(1, progress.done / progress.total);
}
