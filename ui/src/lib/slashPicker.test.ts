import { describe, expect, it } from 'vitest';
import type { McpPromptView } from './bindings/McpPromptView';
import { entryCommand, entryDescription, highlightOf, pickerEntries, pickerGroups, stepHighlight } from './slashPicker';
import { skillItem } from '../../tests/e2e/skillItems';

const prompt = (server: string, name: string, title: string | null = null): McpPromptView => ({ server, name, title, description: `${name} prompt`, arguments: [] });
const skills = [skillItem('time-report'), skillItem('off', { enabled: false }), skillItem('weather')];
const prompts = [prompt('time', 'now', 'The time now'), prompt('everything', 'simple')];

describe('the / picker', () => {
  it('offers the enabled skills first, then the prompts, then the built-in commands, for a / query only', () => {
    expect(pickerEntries('/', skills, prompts)?.map(entryCommand)).toEqual(['/time-report', '/weather', '/time:now', '/everything:simple', '/mcp']);
    expect(pickerEntries('/mcp', skills, prompts)?.map(entryCommand)).toEqual(['/mcp']);
    expect(pickerEntries('/mcp', null, null)?.map(entryCommand)).toEqual(['/mcp']);
    expect(pickerEntries('/tim', skills, prompts)?.map(entryCommand)).toEqual(['/time-report', '/time:now']);
    // A `:` is a prompt's: no skill has one.
    expect(pickerEntries('/time:', skills, prompts)?.map(entryCommand)).toEqual(['/time:now']);
    expect(pickerEntries('/zzz', skills, prompts)).toEqual([]);
    expect(pickerEntries('/tim', null, null)).toEqual([]);
    expect(pickerEntries('hello /tim', skills, prompts)).toBeNull();
    expect(pickerEntries('/time-report now', skills, prompts)).toBeNull();
  });

  it('describes an entry by its skill’s description or its prompt’s title', () => {
    const [report, , now, simple, mcp] = pickerEntries('/', skills, prompts)!;
    expect([report, now, simple, mcp].map(entryDescription)).toEqual(['The time-report skill', 'The time now', 'simple prompt', 'Show the MCP servers, their tools and resources']);
  });

  it('groups the entries by kind with where each group starts', () => {
    const entries = pickerEntries('/', skills, prompts)!;
    expect(pickerGroups(entries).map((g) => [g.kind, g.start, g.entries.map(entryCommand)])).toEqual([
      ['skill', 0, ['/time-report', '/weather']],
      ['prompt', 2, ['/time:now', '/everything:simple']],
      ['command', 4, ['/mcp']],
    ]);
    expect(pickerGroups(pickerEntries('/time:', skills, prompts)!).map((g) => [g.kind, g.start])).toEqual([['prompt', 0]]);
    expect(pickerGroups([])).toEqual([]);
  });

  it('moves the highlight with wrapping at both ends', () => {
    expect(stepHighlight(0, 1, 3)).toBe(1);
    expect(stepHighlight(2, 1, 3)).toBe(0);
    expect(stepHighlight(0, -1, 3)).toBe(2);
    expect(stepHighlight(0, -1, 1)).toBe(0);
    expect(stepHighlight(0, 1, 0)).toBe(0);
  });

  it('keeps the highlight while the same query is typed, within the entries there are', () => {
    expect(highlightOf({ query: '/t', index: 2 }, '/t', 4)).toBe(2);
    expect(highlightOf({ query: '/t', index: 2 }, '/ti', 4)).toBe(0);
    expect(highlightOf({ query: '/t', index: 3 }, '/t', 2)).toBe(1);
    expect(highlightOf({ query: '/t', index: 3 }, '/t', 0)).toBe(0);
  });
});
