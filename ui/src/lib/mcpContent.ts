// MCP resources and prompts in the composer: a server's prompts in the `/` picker as
// `/<server>:<prompt>` (matched as typed), the arguments a prompt still needs, and the MCP
// servers a job's authorization names (`mcp__<server>__*`).
import type { McpPromptView } from './bindings/McpPromptView';

/** The command a prompt is offered as. */
export const promptCommand = (p: McpPromptView) => `/${p.server}:${p.name}`;

/** The query of a `/…` being typed (letters, digits, `-`, `_` and one `:`), or null. */
export function promptQuery(text: string): string | null {
  const match = /^\/([a-z0-9_-]*(?::[a-z0-9_.-]*)?)$/i.exec(text);
  return match ? match[1].toLowerCase() : null;
}

/** The prompts `query` completes to: commands starting with it first, then containing it. */
export function completePrompts(prompts: McpPromptView[], query: string): McpPromptView[] {
  const key = (p: McpPromptView) => `${p.server}:${p.name}`.toLowerCase();
  const starts = prompts.filter((p) => key(p).startsWith(query));
  const contains = prompts.filter((p) => !key(p).startsWith(query) && key(p).includes(query));
  return [...starts, ...contains];
}

/** The required arguments of `prompt` left blank in `values`. */
export function missingArguments(prompt: McpPromptView, values: Record<string, string>): string[] {
  return prompt.arguments.filter((a) => a.required && !(values[a.name] ?? '').trim()).map((a) => a.name);
}

/** The filled-in arguments (blank optional ones left out). */
export function promptArguments(values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (value.trim()) out[name] = value;
  return out;
}

/** The MCP servers whose every tool `tools` (a job authorization's) covers. */
export function mcpServersOf(tools: string[]): string[] {
  return tools.flatMap((tool) => /^mcp__(.+)__\*$/.exec(tool)?.[1] ?? []);
}

/** `tools` with exactly `servers`' scopes (`mcp__<server>__*`) as MCP servers. */
export function withMcpServers(tools: string[], servers: string[]): string[] {
  return [...tools.filter((tool) => !/^mcp__.+__\*$/.test(tool)), ...servers.map((s) => `mcp__${s}__*`)];
}
