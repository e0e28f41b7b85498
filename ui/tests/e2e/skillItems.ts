// Skills for the tests: a skill as the backend lists it, with plain defaults and only what a
// test cares about given.
import type { SkillItem } from '../../src/lib/skills';

export function skillItem(name: string, given: Partial<SkillItem> = {}): SkillItem {
  return {
    name,
    description: `The ${name} skill`,
    format: 'agent_skills',
    source: 'user',
    dialect: 'echo',
    enabled: true,
    version: null,
    dir: `/data/skills/${name}`,
    declares: 'none',
    permissions: [],
    allowed_tools: [],
    tools: [],
    ...given,
  };
}
