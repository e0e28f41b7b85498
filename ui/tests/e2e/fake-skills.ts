// The Skills part of the fake backend: installed after `installFakeBackend`, it wraps
// `__TAURI_INTERNALS__.invoke` to answer the skill commands like the skill library would
// (installs previewed by token then confirmed or cancelled, switches, removal, imports), and
// sends a skill run as `send_message` with the skill as a part beside the typed text, the way the
// backend stores it. Serialized into the page: it must not use anything from outside its body.
import type { ImportCandidate, SkillItem } from '../../src/lib/skills';
import type { FakeHandlers, FakeTable } from './fake-ipc';

export interface SkillsScenario {
  skills?: SkillItem[];
  /** What a preview finds at a location (anything else is refused). */
  skillSources?: Record<string, SkillItem>;
  /** Instructions by skill name (default: a heading with the name). */
  skillInstructions?: Record<string, string>;
  skillImports?: ImportCandidate[];
  /** Milliseconds a preview takes (to see its progress indicator). */
  previewDelayMs?: number;
}

export function installFakeSkills(scenario: SkillsScenario): void {
  const w = window as unknown as {
    __TAURI_INTERNALS__: { invoke: (cmd: string, args?: Record<string, unknown>) => Promise<unknown> };
    __hearth: { calls: { cmd: string; args: Record<string, unknown> }[] };
  };
  const original = w.__TAURI_INTERNALS__.invoke;
  const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value));
  const skills: SkillItem[] = copy(scenario.skills ?? []);
  const pending = new Map<string, SkillItem>();
  let nextToken = 1;
  const fail = (message: string) => ({ code: 'skill', params: { message } });
  const find = (name: string) => {
    const skill = skills.find((s) => s.name === name);
    if (!skill) throw fail(`no skill named \`${name}\``);
    return skill;
  };
  const instructions = (name: string) => scenario.skillInstructions?.[name] ?? `# ${name}\n\nDo the ${name} thing.`;

  const handlers: FakeHandlers = {
    list_skills: () => ({ skills: copy(skills).sort((a, b) => a.name.localeCompare(b.name)), broken: [], untrusted_project: null }),
    view_skill: (a) => ({ skill: copy(find(a.name)), instructions: instructions(a.name), files: ['SKILL.md', 'scripts/run.sh'] }),
    set_skill_enabled: (a) => {
      find(a.name).enabled = a.enabled;
      return null;
    },
    remove_skill: (a) => {
      skills.splice(skills.indexOf(find(a.name)), 1);
      return null;
    },
    preview_skill_install: async (a) => {
      if (scenario.previewDelayMs) await new Promise((r) => setTimeout(r, scenario.previewDelayMs));
      const found = scenario.skillSources?.[a.location];
      if (!found) throw fail(`${a.location}: not a folder, .zip, .tar.gz or .tgz file`);
      if (skills.some((s) => s.name === found.name)) throw fail(`a skill folder \`${found.name}\` is already installed; remove it first`);
      const token = `t${nextToken++}`;
      pending.set(token, copy(found));
      return { token, skill: copy(found) };
    },
    confirm_skill_install: (a) => {
      const skill = pending.get(a.token);
      if (!skill) throw fail('this install is no longer waiting; preview it again');
      pending.delete(a.token);
      skills.push(skill);
      return copy(skill);
    },
    cancel_skill_install: (a) => {
      pending.delete(a.token);
      return null;
    },
    list_skill_imports: () => copy(scenario.skillImports ?? []),
    import_skills: (a) => {
      const dirs = a.dirs as string[];
      return dirs.map((dir) => {
        const c = (scenario.skillImports ?? []).find((x) => x.dir === dir);
        if (!c) throw fail(`${dir}: not found`);
        const skill: SkillItem = {
          name: c.name,
          description: c.description ?? '',
          format: c.format ?? 'agent_skills',
          source: 'imported',
          dialect: 'echo',
          enabled: true,
          version: null,
          dir: `/data/skills/${c.name}`,
          declares: 'none',
          permissions: [],
          allowed_tools: [],
          tools: [],
        };
        skills.push(skill);
        return copy(skill);
      });
    },
    send_skill_message: (a) => {
      const skill = find(a.skill);
      if (!skill.enabled) throw fail(`the skill \`${a.skill}\` is switched off; switch it on on the Skills page first`);
      const parts = a.content as { type: string }[];
      const part = { type: 'skill', name: skill.name, dialect: skill.dialect, folder: skill.dir, instructions_file: skill.format === 'ceecore' ? 'prompt.md' : 'SKILL.md', instructions: instructions(a.skill) };
      const content = [part, ...parts];
      return original('send_message', { sessionId: a.sessionId, content, onEvent: a.onEvent }) as Promise<null>;
    },
  };

  w.__TAURI_INTERNALS__.invoke = async (cmd: string, args: Record<string, unknown> = {}) => {
    const handler = (handlers as unknown as FakeTable)[cmd];
    if (!handler) return original(cmd, args);
    w.__hearth.calls.push({ cmd, args });
    return handler(args);
  };
}
