import { describe, expect, it } from 'vitest';
import type { McpPromptView } from './bindings/McpPromptView';
import { chipFor } from './attachments';
import {
  completePrompts,
  mcpServersOf,
  missingArguments,
  promptArguments,
  promptCommand,
  promptQuery,
  withMcpServers,
} from './mcpContent';

const prompt = (server: string, name: string, required: string[] = [], optional: string[] = []): McpPromptView => ({
  server,
  name,
  title: null,
  description: null,
  arguments: [...required.map((n) => ({ name: n, description: null, required: true })), ...optional.map((n) => ({ name: n, description: null, required: false }))],
});

describe('MCP prompts in the / picker', () => {
  it('reads the query of a /server:prompt being typed', () => {
    expect(promptQuery('/')).toBe('');
    expect(promptQuery('/Every')).toBe('every');
    expect(promptQuery('/everything:args-prompt')).toBe('everything:args-prompt');
    expect(promptQuery('/a:b:c')).toBeNull();
    expect(promptQuery('/everything: hi')).toBeNull();
    expect(promptQuery('hello')).toBeNull();
  });

  it('completes commands starting with the query first, then containing it', () => {
    const prompts = [prompt('docs', 'summary'), prompt('everything', 'simple-prompt'), prompt('everything', 'args-prompt')];
    expect(completePrompts(prompts, 'everything:').map(promptCommand)).toEqual(['/everything:simple-prompt', '/everything:args-prompt']);
    expect(completePrompts(prompts, 'args').map(promptCommand)).toEqual(['/everything:args-prompt']);
    expect(completePrompts(prompts, 'sum').map(promptCommand)).toEqual(['/docs:summary']);
    expect(completePrompts(prompts, 'nothing')).toEqual([]);
  });

  it('names the required arguments left blank and drops blank optional ones', () => {
    const p = prompt('everything', 'args-prompt', ['city'], ['state']);
    expect(missingArguments(p, {})).toEqual(['city']);
    expect(missingArguments(p, { city: '  ' })).toEqual(['city']);
    expect(missingArguments(p, { city: 'Paris' })).toEqual([]);
    expect(promptArguments({ city: 'Paris', state: ' ' })).toEqual({ city: 'Paris' });
  });
});

describe('an attached MCP resource', () => {
  const text = 'Attached MCP resource `everything` `demo://resource/static/document/a.md`:\n```\nhello\n```\n';

  it('is labelled by the server and URI the backend gave beside its text', () => {
    const source = { kind: 'mcp_resource' as const, server: 'everything', uri: 'demo://resource/static/document/a.md' };
    const chip = chipFor({ type: 'attached', text, source }, 'c1');
    expect(chip.kind).toBe('text');
    expect(chip.label).toBe('everything: demo://resource/static/document/a.md');
  });
});

describe("a job authorization's MCP servers", () => {
  it('reads the servers it names and replaces them', () => {
    expect(mcpServersOf(['exec', 'mcp__github__*', 'mcp__a__b'])).toEqual(['github']);
    expect(withMcpServers(['exec', 'mcp__github__*'], ['notes'])).toEqual(['exec', 'mcp__notes__*']);
    expect(withMcpServers(['exec', 'mcp__github__*'], [])).toEqual(['exec']);
  });
});
