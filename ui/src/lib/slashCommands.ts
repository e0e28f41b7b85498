// The composer's built-in slash commands (run in the window, never sent to the model): the ones
// a `/query` completes to, for the `/` picker, and the one a message typed out in full names.
import type { MessageKey } from './i18n/en';

/** A built-in command, typed as `/<name>`. */
export type SlashCommand = 'mcp';

/** What each built-in command does, in the picker's order. */
export const SLASH_COMMANDS: Record<SlashCommand, MessageKey> = { mcp: 'mcpres.command.mcp' };

const names = Object.keys(SLASH_COMMANDS) as SlashCommand[];

/** The commands a `/query` (lowercase, without the slash) completes to: names starting with it first. */
export function completeCommands(query: string): SlashCommand[] {
  return [...names.filter((n) => n.startsWith(query)), ...names.filter((n) => !n.startsWith(query) && n.includes(query))];
}

/** The command a whole message is (`/mcp`, any case, spaces around), or null. */
export function typedCommand(text: string): SlashCommand | null {
  const typed = text.trim().toLowerCase();
  return names.find((n) => `/${n}` === typed) ?? null;
}
