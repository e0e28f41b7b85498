// The composer's `/` picker as a listbox: the enabled skills, the MCP servers' prompts and the
// built-in commands a `/query` completes to (in that order), grouped by kind, and the highlighted entry moved with
// the arrow keys (wrapping at both ends) and kept while the same query is typed.
import type { McpPromptView } from './bindings/McpPromptView';
import { completePrompts, promptCommand, promptQuery } from './mcpContent';
import { t } from './i18n/index.svelte';
import { completeCommands, SLASH_COMMANDS, type SlashCommand } from './slashCommands';
import { completeSkills, slashQuery, type SkillItem } from './skills';

export type PickerEntry = { kind: 'skill'; skill: SkillItem } | { kind: 'prompt'; prompt: McpPromptView } | { kind: 'command'; command: SlashCommand };

/** The entries of `text` (a `/query` being typed), or null when it is no such query. */
export function pickerEntries(text: string, skills: SkillItem[] | null, prompts: McpPromptView[] | null): PickerEntry[] | null {
  const prompt = promptQuery(text);
  if (prompt === null) return null;
  const skill = slashQuery(text);
  return [
    ...(skill !== null && skills ? completeSkills(skills, skill).map((s): PickerEntry => ({ kind: 'skill', skill: s })) : []),
    ...(prompts ? completePrompts(prompts, prompt).map((p): PickerEntry => ({ kind: 'prompt', prompt: p })) : []),
    ...(skill !== null ? completeCommands(skill).map((c): PickerEntry => ({ kind: 'command', command: c })) : []),
  ];
}

/** What an entry is typed as (`/skill`, `/server:prompt`, `/mcp`). */
export function entryCommand(entry: PickerEntry): string {
  if (entry.kind === 'skill') return `/${entry.skill.name}`;
  if (entry.kind === 'prompt') return promptCommand(entry.prompt);
  return `/${entry.command}`;
}

/** What an entry does, in a few words (a built-in command's in the UI language). */
export function entryDescription(entry: PickerEntry): string {
  if (entry.kind === 'skill') return entry.skill.description;
  if (entry.kind === 'prompt') return entry.prompt.title ?? entry.prompt.description ?? '';
  return t(SLASH_COMMANDS[entry.command]);
}

/** The entries of each kind present, with the index of their first entry among all. */
export function pickerGroups(entries: PickerEntry[]): { kind: PickerEntry['kind']; start: number; entries: PickerEntry[] }[] {
  const kinds: PickerEntry['kind'][] = ['skill', 'prompt', 'command'];
  let start = 0;
  return kinds
    .map((kind) => {
      const group = { kind, start, entries: entries.filter((e) => e.kind === kind) };
      start += group.entries.length;
      return group;
    })
    .filter((group) => group.entries.length > 0);
}

/** Where the highlight is: on `index` while `query` is what was typed then. */
export interface Cursor {
  query: string;
  index: number;
}

/** The highlighted entry of `count` for `query`: the cursor's while its query is typed, else the first. */
export function highlightOf(cursor: Cursor, query: string, count: number): number {
  return cursor.query === query ? Math.min(Math.max(cursor.index, 0), Math.max(count - 1, 0)) : 0;
}

/** The index `step` entries away from `index` among `count`, wrapping around at both ends. */
export function stepHighlight(index: number, step: number, count: number): number {
  return count > 0 ? (((index + step) % count) + count) % count : 0;
}
