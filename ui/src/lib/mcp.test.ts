import { describe, expect, it } from 'vitest';
import type { McpServerSettings } from './bindings/McpServerSettings';
import { emptyForm, formJson, mcpServerOf, splitCommandLine, withApproval } from './mcp';
import { mcpServer } from '../../tests/e2e/mcpServers';

const server: McpServerSettings = mcpServer('fs', { command: 'npx', tools: { read_file: 'always', write_file: 'never' } });

describe('mcp', () => {
  it('splits a command line, keeping quoted parts whole', () => {
    expect(splitCommandLine(`npx -y @modelcontextprotocol/server-filesystem "/home/me/My Docs" 'a b'`)).toEqual([
      'npx',
      '-y',
      '@modelcontextprotocol/server-filesystem',
      '/home/me/My Docs',
      'a b',
    ]);
    expect(splitCommandLine('   ')).toEqual([]);
  });

  it('makes mcpServers JSON from the form, or names what is missing', () => {
    const stdio = formJson({ ...emptyForm(), name: 'gh', commandLine: 'npx -y server-github', env: 'GITHUB_TOKEN=abc\n\nDEBUG=1' });
    expect('json' in stdio && JSON.parse(stdio.json)).toEqual({
      mcpServers: { gh: { command: 'npx', args: ['-y', 'server-github'], env: { GITHUB_TOKEN: 'abc', DEBUG: '1' } } },
    });
    const http = formJson({ ...emptyForm(), name: 'web', kind: 'url', url: 'https://x.test/mcp', headers: 'Authorization: Bearer t' });
    expect('json' in http && JSON.parse(http.json)).toEqual({ mcpServers: { web: { url: 'https://x.test/mcp', headers: { Authorization: 'Bearer t' } } } });
    expect(formJson({ ...emptyForm(), commandLine: 'x' })).toEqual({ problem: 'name' });
    expect(formJson({ ...emptyForm(), name: 'a' })).toEqual({ problem: 'command' });
    expect(formJson({ ...emptyForm(), name: 'a', kind: 'url', url: 'ftp://x' })).toEqual({ problem: 'url' });
    expect(formJson({ ...emptyForm(), name: 'a', commandLine: 'x', env: 'NOEQUALS' })).toEqual({ problem: 'line', line: 'NOEQUALS' });
  });

  it('sets one tool’s approval and drops it for the default', () => {
    expect(withApproval(server, 'write_file', '').tools).toEqual({ read_file: 'always' });
    expect(withApproval(server, 'list', 'ask').tools).toEqual({ read_file: 'always', write_file: 'never', list: 'ask' });
  });

  it('names the server of an MCP tool', () => {
    expect(mcpServerOf('mcp__github__create_issue')).toBe('github');
    expect(mcpServerOf('mcp__my-server__a__b')).toBe('my-server');
    expect(mcpServerOf('read_file')).toBeNull();
    expect(mcpServerOf('mcp__x__')).toBeNull();
  });
});
