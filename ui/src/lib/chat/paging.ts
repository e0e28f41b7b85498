// Paging of long chats: a chat opens with its newest messages and loads older pages as the user
// scrolls up; these decide where a page joins the rows already loaded.
import type { ChatRow } from './rows';

/** Messages per page: enough to fill a tall window several times over. */
export const PAGE_SIZE = 40;

/** The id of the oldest row that is a stored message (the cursor for the next older page). */
export function oldestStoredId(rows: readonly ChatRow[]): number | null {
  for (const row of rows) if (row.id !== null) return row.id;
  return null;
}

/** The id of the newest stored row before index `end`. */
export function newestStoredId(rows: readonly ChatRow[], end = rows.length): number | null {
  for (let i = Math.min(end, rows.length) - 1; i >= 0; i--) {
    const id = rows[i].id;
    if (id !== null) return id;
  }
  return null;
}

/** Where rows rebuilt from a newer page begin inside `current`: the index of the page's first
 * row, or 0 when the page reaches further back than `current` or shares no row with it (the page
 * then replaces every row). */
export function tailStart(current: readonly ChatRow[], fresh: readonly ChatRow[]): number {
  const first = fresh[0]?.key;
  if (first === undefined) return 0;
  for (let i = current.length - 1; i >= 0; i--) if (current[i].key === first) return i;
  return 0;
}

/** The rows of an older page that go before `current` (any it already shows are left out). */
export function olderRows(current: readonly ChatRow[], older: ChatRow[]): ChatRow[] {
  const first = current[0]?.key;
  const overlap = first === undefined ? -1 : older.findIndex((r) => r.key === first);
  return overlap < 0 ? older : older.slice(0, overlap);
}
