// The fake backends' handler types, keyed by the generated command table (`ui/src/lib/ipc.ts`
// over `bindings/commands.ts`): a handler takes the command's real arguments and answers its
// real result; and the events they send, typed by the generated event table (`bindings/events.ts`).
// A command, event or field renamed in Rust fails the UI tests' type check.
import type { AppEvent, Events } from '../../src/lib/events';
import type { Args, Command, Reply } from '../../src/lib/ipc';

/** What a handler answers for `C`: its result (`null` or nothing for a command returning none). */
export type FakeReply<C extends Command> = Reply<C> extends void ? void | null : Reply<C>;

/** A fake's answer to `C`, now or later; a throw is the command's rejection. */
export type FakeHandler<C extends Command> = (args: Args<C>) => FakeReply<C> | Promise<FakeReply<C>>;

/** The commands a fake answers (and the plugins' commands it stands in for, untyped). */
export type FakeHandlers = { [C in Command]?: FakeHandler<C> } & {
  [plugin: `plugin:${string}`]: ((args: Record<string, unknown>) => unknown) | undefined;
};

/** The same table looked up by a name the page passed (`invoke`'s untyped side). */
export type FakeTable = Record<string, ((args: Record<string, unknown>) => unknown) | undefined>;

/** Delivers an event to the page's listeners: one of the app's with its payload, or one of those
 * Tauri itself sends (`tauri://drag-drop`, …), which are not in the app's table. */
export interface FakeEmit {
  <E extends AppEvent>(event: E, payload: Events[E]): void;
  (event: `tauri://${string}`, payload: unknown): void;
}
