// The knowledge base in the UI: the citations of a `knowledge_search` result, what to say when
// one opened only its file, and the progress of an indexing pass.
import type { Citation } from './bindings/Citation';
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

/** The notice key for a citation opened in its file's default app, not at its place. */
export function openedOnlyKey(hit: Citation): MessageKey {
  switch (hit.unit) {
    case 'page':
    case 'line':
    case 'slide':
    case 'sheet':
      return `knowledge.openedOnly.${hit.unit}`;
    default:
      return 'knowledge.openedOnly.other';
  }
}

/** The share of a pass done, 0 to 1 (1 when there is nothing to do). */
export function fraction(progress: Progress): number {
  return progress.total === 0 ? 1 : Math.min(1, progress.done / progress.total);
}
