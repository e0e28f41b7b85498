// What a browser tool card shows beside its screenshot thumbnail: the action, the page's URL
// and title, and the page outline (folded), from the call's arguments and its stored result.
import type { ToolCard } from './rows';

export interface BrowserView {
  action: string;
  url: string | null;
  title: string | null;
  /** The outline text the model read (shown folded). */
  snapshot: string | null;
}

function parse(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The browser card of `card`, or null when it is not a `browser` call. */
export function browserView(card: ToolCard): BrowserView | null {
  if (card.call.name !== 'browser') return null;
  const args = parse(card.call.arguments);
  const result = card.result && !card.result.is_error ? parse(card.result.content) : {};
  return {
    action: text(args.action) ?? '?',
    url: text(result.url) ?? text(args.url),
    title: text(result.title),
    snapshot: text(result.snapshot),
  };
}
