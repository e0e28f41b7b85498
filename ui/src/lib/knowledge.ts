// The knowledge base in the UI: the citations of a `knowledge_search` result, what to say when
// one opened only its file, and the progress of an indexing pass.
import type { Citation } from './bindings/Citation';
import type { Opened } from './bindings/Opened';
import type { Progress } from './bindings/Progress';
import type { ToolCard } from './chat/rows';
import type { MessageKey } from './i18n/en';

/** The cited snippets a finished `knowledge_search` call returned (none for other tools). */
export function citationsOf(card: ToolCard): Citation[] {
  if (card.call.name !== 'knowledge_search' || !card.result || card.result.is_error) return [];
  try {
    const parsed = JSON.parse(card.result.content) as { results?: Citation[] };
    return Array.isArray(parsed.results) ? parsed.results : [];
  } catch {
    return [];
  }
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
