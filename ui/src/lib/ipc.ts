// The typed `invoke` over the generated IPC contract (`bindings/commands.ts`, written from the
// Rust commands' signatures by `cargo test -p hearth --lib contract`): a command's name, its
// argument keys and types and its result come from the Rust function, so renaming any of them
// there fails this build.
import { invoke, type InvokeArgs } from '@tauri-apps/api/core';
import type { Commands } from './bindings/commands';

export type { Commands };
export type Command = keyof Commands;
/** The object `invoke` takes for `C` (its keys camelCase, as Tauri expects). */
export type Args<C extends Command> = Commands[C]['args'];
/** What `C` resolves with. */
export type Reply<C extends Command> = Commands[C]['result'];
/** What `C` rejects with (`never` for a command that cannot fail). */
export type Failure<C extends Command> = Commands[C]['error'];
/** `invoke`'s arguments after the name: none for a command that takes none. */
export type ArgList<C extends Command> = keyof Args<C> extends never ? [] : [args: Args<C>];

/** Calls `command`; rejects with its `Failure` (the backend's `AppError` for most). */
export function call<C extends Command>(command: C, ...args: ArgList<C>): Promise<Reply<C>> {
  return invoke<Reply<C>>(command, args[0] as InvokeArgs | undefined);
}
