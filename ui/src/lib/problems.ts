// How an error a part of the window threw reads on its failed card and in the log.
import { errorText } from './errors';

/** The error's name and message (a backend error translated); `withStack` adds where it was
 * thrown, for the log. */
export function problemText(error: unknown, withStack = false): string {
  if (!(error instanceof Error)) return errorText(error);
  const head = `${error.name}: ${error.message}`;
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s*at |@/.test(line)).slice(0, 8);
  return withStack && frames.length ? [head, ...frames].join('\n') : head;
}
