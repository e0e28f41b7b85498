// MCP servers in the UI: the `mcpServers` JSON the add form makes (the backend's import moves
// secret-looking values to the keychain), a command line split into program and arguments,
// a server's per-tool approval changed, an MCP tool's server, and `/mcp` recognized in the
// composer.
import type { McpApproval } from './bindings/McpApproval';
import type { McpServerSettings } from './bindings/McpServerSettings';

export interface ServerForm {
  name: string;
  /** `command` for a stdio server, `url` for streamable HTTP. */
  kind: 'command' | 'url';
  commandLine: string;
  url: string;
  /** `KEY=value` per line. */
  env: string;
  /** `Name: value` per line. */
  headers: string;
}

export const emptyForm = (): ServerForm => ({ name: '', kind: 'command', commandLine: '', url: '', env: '', headers: '' });

/** Splits a command line at spaces, keeping "quoted" or 'quoted' parts (with spaces) whole. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(pattern)) words.push(m[1] ?? m[2] ?? m[3]);
  return words;
}

/** `KEY=value` (or `Name: value`) lines as an object; blank lines are skipped. */
export function pairs(text: string, separator: '=' | ':'): Record<string, string> | { bad: string } {
  const out: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const at = line.indexOf(separator);
    const key = at > 0 ? line.slice(0, at).trim() : '';
    if (!key) return { bad: line };
    out[key] = line.slice(at + 1).trim();
  }
  return out;
}

/** The form as `mcpServers` JSON, or why it cannot be. */
export function formJson(form: ServerForm): { json: string } | { problem: 'name' | 'command' | 'url' | 'line'; line?: string } {
  const name = form.name.trim();
  if (!name) return { problem: 'name' };
  let entry: Record<string, unknown>;
  if (form.kind === 'command') {
    const [command, ...args] = splitCommandLine(form.commandLine);
    if (!command) return { problem: 'command' };
    const env = pairs(form.env, '=');
    if ('bad' in env && typeof env.bad === 'string') return { problem: 'line', line: env.bad };
    entry = { command, args, env };
  } else {
    const url = form.url.trim();
    if (!/^https?:\/\//.test(url)) return { problem: 'url' };
    const headers = pairs(form.headers, ':');
    if ('bad' in headers && typeof headers.bad === 'string') return { problem: 'line', line: headers.bad };
    entry = { url, headers };
  }
  return { json: JSON.stringify({ mcpServers: { [name]: entry } }) };
}

/** The approval choices of a tool: the server's default (ask, or run when read-only and trusted) or one of three. */
export type ToolChoice = '' | McpApproval;

/** `server` with `tool` set to `choice` (the default removes its entry). */
export function withApproval(server: McpServerSettings, tool: string, choice: ToolChoice): McpServerSettings {
  const tools: Record<string, McpApproval> = {};
  for (const [name, value] of Object.entries(server.tools)) if (value && name !== tool) tools[name] = value;
  if (choice) tools[tool] = choice;
  return { ...server, tools };
}

/** The server of an MCP tool's name (`mcp__<server>__<tool>`); null for other tools. */
export function mcpServerOf(tool: string): string | null {
  const m = /^mcp__(.+?)__./.exec(tool);
  return m ? m[1] : null;
}
