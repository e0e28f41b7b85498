// The composer's `/` picker as a listbox: the enabled skills and the MCP servers' prompts a
// `/query` completes to (skills first), grouped by kind, and the highlighted entry moved with
// the arrow keys (wrapping at both ends) and kept while the same query is typed.
import type { McpPromptView } from './bindings/McpPromptView';
import { completePrompts, promptCommand, promptQuery } from './mcpContent';
import { completeSkills, slashQuery, type SkillItem } from './skills';

export type PickerEntry = { kind: 'skill'; skill: SkillItem } | { kind: 'prompt'; prompt: McpPromptView };

/** The entries of `text` (a `/query` being typed), or null when it is no such query. */
export function pickerEntries(text: string, skills: SkillItem[] | null, prompts: McpPromptView[] | null): PickerEntry[] | null {
  const prompt = promptQuery(text);
  if (prompt === null) return null;
  const skill = slashQuery(text);
  return [
    ...(skill !== null && skills ? completeSkills(skills, skill).map((s): PickerEntry => ({ kind: 'skill', skill: s })) : []),
    ...(prompts ? completePrompts(prompts, prompt).map((p): PickerEntry => ({ kind: 'prompt', prompt: p })) : []),
  ];
}

/** What an entry is typed as (`/skill`, `/server:prompt`). */
export const entryCommand = (entry: PickerEntry) => (entry.kind === 'skill' ? `/${entry.skill.name}` : promptCommand(entry.prompt));

/** What an entry does, in a few words. */
export const entryDescription = (entry: PickerEntry) =>
  entry.kind === 'skill' ? entry.skill.description : (entry.prompt.title ?? entry.prompt.description ?? '');

/** The entries of each kind present, with the index of their first entry among all. */
export function pickerGroups(entries: PickerEntry[]): { kind: PickerEntry['kind']; start: number; entries: PickerEntry[] }[] {
  const skills = entries.filter((e) => e.kind === 'skill');
  const prompts = entries.filter((e) => e.kind === 'prompt');
  return [
    { kind: 'skill' as const, start: 0, entries: skills },
    { kind: 'prompt' as const, start: skills.length, entries: prompts },
  ].filter((group) => group.entries.length > 0);
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
