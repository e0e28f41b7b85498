// The typed views a tool card shows (built by the backend from the canonical tool, the call's
// arguments and its result), each kind's type, and the collapse limits of the long ones.
import type { ToolView } from '../bindings/ToolView';
import type { ToolCard } from './rows';

export type DiffView = Extract<ToolView, { kind: 'diff' }>;
export type SearchHitsView = Extract<ToolView, { kind: 'search_hits' }>;
export type FileListView = Extract<ToolView, { kind: 'file_list' }>;
export type MediaView = Extract<ToolView, { kind: 'media' }>;
export type BrowserPageView = Extract<ToolView, { kind: 'browser_page' }>;
export type FailureView = Extract<ToolView, { kind: 'failure' }>;

/** Diff lines shown before the card offers "show all". */
export const DIFF_COLLAPSED_LINES = 40;
/** Search hits shown before the card offers "show all". */
export const HITS_COLLAPSED = 30;

/** The views of a card's result in order, or while it runs those of its call. */
export function viewsOf(card: ToolCard): ToolView[] {
  return card.result ? (card.result.views ?? []) : (card.runningViews ?? []);
}

/** The first view of `kind` among `views`, or null. */
export function viewOf<K extends ToolView['kind']>(views: ToolView[], kind: K): Extract<ToolView, { kind: K }> | null {
  return (views.find((v) => v.kind === kind) as Extract<ToolView, { kind: K }> | undefined) ?? null;
}
