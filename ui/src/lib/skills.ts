// The small pieces of logic of the Skills page and the composer's `/` picker; the skill types are
// generated (`ui/src/lib/bindings/`, from src-tauri/src/commands/skills and hearth-skills).

import type { InstallKind } from './bindings/InstallKind';
import type { SkillItem } from './bindings/SkillItem';

export type { BrokenItem } from './bindings/BrokenItem';
export type { ImportCandidate } from './bindings/ImportCandidate';
export type { InstallPreview } from './bindings/InstallPreview';
export type { PermissionBadge } from './bindings/PermissionBadge';
export type { SkillDetail } from './bindings/SkillDetail';
export type { SkillFormat } from './bindings/SkillFormat';
export type { InstallKind, SkillItem };
export type { SkillSource } from './bindings/SkillSource';
export type { SkillsList } from './bindings/SkillsList';

/** The `/query` being typed at the start of the composer (no space yet), or null. */
export function slashQuery(text: string): string | null {
  const match = /^\/([a-z0-9_-]*)$/i.exec(text);
  return match ? match[1].toLowerCase() : null;
}

/** The enabled skills a `/query` completes to: names starting with it first, then names
 * containing it, each group by name. */
export function completeSkills(skills: SkillItem[], query: string): SkillItem[] {
  const enabled = skills.filter((s) => s.enabled);
  const starts = enabled.filter((s) => s.name.toLowerCase().startsWith(query));
  const contains = enabled.filter((s) => !s.name.toLowerCase().startsWith(query) && s.name.toLowerCase().includes(query));
  const byName = (a: SkillItem, b: SkillItem) => a.name.localeCompare(b.name);
  return [...starts.sort(byName), ...contains.sort(byName)];
}

/** A message typed as `/name rest` naming an enabled skill: the skill and the rest. */
export function typedSkill(skills: SkillItem[], text: string): { skill: string; rest: string } | null {
  const match = /^\/([a-z0-9_-]+)(?:\s+([\s\S]*))?$/i.exec(text.trim());
  if (!match) return null;
  const skill = skills.find((s) => s.enabled && s.name === match[1]);
  return skill ? { skill: skill.name, rest: (match[2] ?? '').trim() } : null;
}

/** The install kind a typed location suggests: a git URL, an archive URL, else a path. */
export function guessKind(location: string): InstallKind {
  const trimmed = location.trim();
  if (/\.git\/?$/.test(trimmed) || trimmed.startsWith('git@') || trimmed.startsWith('git://')) return 'git';
  if (/^https?:\/\//.test(trimmed)) return 'url';
  return 'folder';
}

/** Skills chosen for a chat before its composer opens ("Use in a new chat"), by session. */
const chosen = new Map<string, string>();

export function chooseSkillFor(sessionId: string, skill: string): void {
  chosen.set(sessionId, skill);
}

/** The skill chosen for `sessionId`, once. */
export function takeChosenSkill(sessionId: string): string | null {
  const skill = chosen.get(sessionId) ?? null;
  chosen.delete(sessionId);
  return skill;
}
