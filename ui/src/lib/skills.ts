// Skills as the backend's skill commands serialize them (hand-written; keep the field names
// identical to src-tauri/src/commands/skills), and the small pieces of logic of the Skills page
// and the composer's `/` picker.

export type SkillFormat = 'agent_skills' | 'ceecore';
export type SkillSource = 'user' | 'project' | 'imported';
export type PermissionBadge = 'internet' | 'files' | 'notifications' | 'schedules';

export interface SkillItem {
  name: string;
  description: string;
  format: SkillFormat;
  source: SkillSource;
  dialect: 'echo' | 'ceecore' | 'picobot';
  enabled: boolean;
  version: string | null;
  dir: string;
  /** `none`: the session's ordinary policy applies. */
  declares: 'none' | 'permissions' | 'allowed_tools';
  permissions: PermissionBadge[];
  allowed_tools: string[];
  tools: string[];
}

export interface BrokenSkill {
  folder: string;
  dir: string;
  source: SkillSource;
  reason: string;
}

export interface SkillsList {
  skills: SkillItem[];
  broken: BrokenSkill[];
  untrusted_project: string | null;
}

export interface SkillDetail {
  skill: SkillItem;
  instructions: string;
  files: string[];
}

export type InstallKind = 'folder' | 'git' | 'url';

export interface InstallPreview {
  token: string;
  skill: SkillItem;
}

export interface ImportCandidate {
  agent: string;
  dir: string;
  name: string;
  description: string | null;
  format: SkillFormat | null;
  broken: string | null;
  installed: boolean;
}

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
