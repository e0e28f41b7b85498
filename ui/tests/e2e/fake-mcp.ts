// The MCP part of the fake backend: installed after `installFakeBackend`, it wraps
// `__TAURI_INTERNALS__.invoke` to answer the MCP commands like the app would — servers from the
// settings, each `starting` on the first look after it is added or changed and then `ready`
// with the scenario's tools (or `failed` with a reason and log lines); the import of
// `mcpServers` JSON moves token-like env values out of the settings (as into the keychain); the
// scenario's resources (attached as the backend's text part) and prompts (`{arg}` filled in);
// a URL server of `mcpSignIn` needs a sign-in until `mcp_sign_in`; an OAuth client secret is
// kept with the other secrets (only a masked hint comes back).
// Serialized into the page: it must not use anything from outside its own body.
import type { McpServerSettings } from '../../src/lib/bindings/McpServerSettings';
import type { McpServerView } from '../../src/lib/bindings/McpServerView';
import type { McpToolView } from '../../src/lib/bindings/McpToolView';
import type { Settings } from '../../src/lib/bindings/Settings';
import type { FakeHandlers, FakeTable } from './fake-ipc';

export interface McpScenario {
  /** Tools of each server once ready, by server name (a server not listed has none). */
  mcpTools?: Record<string, { tool: string; description?: string; read_only?: boolean }[]>;
  /** Servers that fail to start: the reason and the last stderr lines. */
  mcpFailing?: Record<string, { reason: string; log: string[] }>;
  /** Resources of each server: URI, name and text. */
  mcpResources?: Record<string, { uri: string; name: string; text: string }[]>;
  /** Prompts of each server: the text returned, with `{argument}` replaced by its value. */
  mcpPrompts?: Record<string, { name: string; description?: string; arguments: { name: string; required: boolean }[]; text: string }[]>;
  /** URL servers that need an OAuth sign-in until `mcp_sign_in` (and again after `mcp_sign_out`). */
  mcpSignIn?: string[];
  /** Secrets in the keychain at start, by account. */
  mcpSecrets?: Record<string, string>;
}

export function installFakeMcp(scenario: McpScenario): void {
  const w = window as unknown as {
    __TAURI_INTERNALS__: { invoke: (cmd: string, args?: Record<string, unknown>) => Promise<unknown> };
    __hearth: { calls: { cmd: string; args: Record<string, unknown> }[]; settings: Settings; secrets?: Record<string, string> };
  };
  const original = w.__TAURI_INTERNALS__.invoke;
  const settings = w.__hearth.settings;
  const secrets: Record<string, string> = (w.__hearth.secrets = { ...scenario.mcpSecrets });
  /** How each server was last started (its settings without the tool choices) and times looked at. */
  const runs: Record<string, { key: string; looks: number; restarts: number }> = {};
  const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value));
  const needsSignIn = new Set(scenario.mcpSignIn ?? []);

  function connectionKey(s: McpServerSettings): string {
    return JSON.stringify({ ...s, tools: {}, trust_read_only: false, allow_tools: [], deny_tools: [] });
  }

  function view(s: McpServerSettings): McpServerView {
    const key = connectionKey(s);
    const run = runs[s.name] && runs[s.name].key === key ? runs[s.name] : (runs[s.name] = { key, looks: 0, restarts: runs[s.name]?.restarts ?? 0 });
    run.looks += 1;
    const failing = scenario.mcpFailing?.[s.name];
    const state = !s.enabled
      ? 'disabled'
      : run.looks < 2
        ? 'starting'
        : failing
          ? 'failed'
          : needsSignIn.has(s.name)
            ? 'needs_sign_in'
            : 'ready';
    const tools: McpToolView[] =
      state === 'ready'
        ? (scenario.mcpTools?.[s.name] ?? []).map((tool) => {
            const choice = s.tools[tool.tool];
            const readOnly = tool.read_only ?? false;
            return {
              tool: tool.tool,
              qualified: choice === 'never' ? null : `mcp__${s.name}__${tool.tool}`,
              description: tool.description ?? '',
              read_only: readOnly,
              unasked: choice === 'always' || (choice === undefined && s.trust_read_only && readOnly),
            };
          })
        : [];
    return {
      name: s.name,
      state,
      reason: state === 'failed' ? failing!.reason : null,
      transport: s.url ? 'http' : 'stdio',
      protocol_version: state === 'ready' ? '2025-11-25' : null,
      restarts: run.restarts,
      log_path: `/data/logs/mcp/${s.name}.log`,
      log_tail: state === 'failed' ? failing!.log : state === 'ready' ? [`hearth: ready with ${tools.length} tools`] : [],
      tools,
    };
  }

  function imported(name: string, entry: Record<string, unknown>): McpServerSettings {
    const env: Record<string, string> = {};
    const secret_env: string[] = [];
    for (const [k, v] of Object.entries((entry.env as Record<string, string>) ?? {})) {
      if (/TOKEN|KEY|SECRET|PASSWORD/i.test(k)) {
        secret_env.push(k);
        secrets[`mcp:${name}:env:${k}`] = v;
      } else env[k] = v;
    }
    return {
      name,
      command: (entry.command as string) ?? null,
      args: (entry.args as string[]) ?? [],
      env,
      secret_env,
      url: (entry.url as string) ?? null,
      headers: (entry.headers as Record<string, string>) ?? {},
      secret_headers: [],
      enabled: true,
      startup_timeout_secs: 30,
      call_timeout_secs: 60,
      oauth: { client_id: null, client_metadata_url: null, scopes: [] },
      allow_tools: [],
      deny_tools: [],
      trust_read_only: false,
      tools: {},
    };
  }

  function clientSecretStatus(name: string) {
    const stored = secrets[`mcp:${name}:oauth:client-secret`];
    return { provider_id: name, stored: stored !== undefined, masked: stored === undefined ? null : `••••${stored.slice(-4)}`, keychain_unavailable: false };
  }

  const handlers: FakeHandlers = {
    mcp_servers: () => settings.mcp_servers.map(view),
    mcp_restart: (a) => {
      const run = runs[a.name];
      if (!run) throw { code: 'unknown_mcp_server', params: { name: a.name } };
      runs[a.name] = { key: run.key, looks: 0, restarts: run.restarts + 1 };
      return null;
    },
    mcp_sign_in: (a) => {
      needsSignIn.delete(a.name);
      return null;
    },
    mcp_sign_out: (a) => {
      needsSignIn.add(a.name);
      return null;
    },
    mcp_client_secret_status: (a) => clientSecretStatus(a.name),
    set_mcp_client_secret: (a) => {
      secrets[`mcp:${a.name}:oauth:client-secret`] = a.secret;
      return clientSecretStatus(a.name);
    },
    delete_mcp_client_secret: (a) => {
      delete secrets[`mcp:${a.name}:oauth:client-secret`];
      return null;
    },
    mcp_import: (a) => {
      let json: Record<string, unknown>;
      try {
        json = JSON.parse(a.text);
      } catch (e) {
        throw { code: 'mcp_servers', params: { message: `not JSON: ${String(e)}` } };
      }
      const servers = json.mcpServers as Record<string, Record<string, unknown>> | undefined;
      if (!servers) throw { code: 'mcp_servers', params: { message: 'no `mcpServers` object in the JSON' } };
      for (const [name, entry] of Object.entries(servers)) {
        if (settings.mcp_servers.some((s) => s.name === name)) {
          throw { code: 'mcp_servers', params: { message: `MCP server \`${name}\` is configured twice` } };
        }
        settings.mcp_servers.push(imported(name, entry));
      }
      return copy(settings);
    },
    mcp_resources: () => {
      const entries = Object.entries(scenario.mcpResources ?? {});
      return {
        resources: entries.flatMap(([server, list]) =>
          list.map((r) => ({ server, uri: r.uri, name: r.name, title: null, description: null, mime_type: 'text/plain', size: r.text.length })),
        ),
        templates: [],
      };
    },
    mcp_attach_resource: (a) => {
      const found = (scenario.mcpResources?.[a.server] ?? []).find((r) => r.uri === a.uri);
      if (!found) throw { code: 'mcp_servers', params: { message: `no resource ${a.uri}` } };
      const text = `Attached MCP resource \`${a.server}\` \`${a.uri}\`:\n\`\`\`\n${found.text}\n\`\`\`\n`;
      return { type: 'attached', text, source: { kind: 'mcp_resource', server: a.server, uri: a.uri } };
    },
    mcp_prompts: () =>
      Object.entries(scenario.mcpPrompts ?? {}).flatMap(([server, list]) =>
        list.map((p) => ({
          server,
          name: p.name,
          title: null,
          description: p.description ?? null,
          arguments: p.arguments.map((arg) => ({ name: arg.name, description: null, required: arg.required })),
        })),
      ),
    mcp_get_prompt: (a) => {
      const prompt = (scenario.mcpPrompts?.[a.server] ?? []).find((p) => p.name === a.name)!;
      const values = a.arguments as Record<string, string>;
      const missing = prompt.arguments.find((arg) => arg.required && !values[arg.name]);
      if (missing) throw { code: 'mcp_servers', params: { message: `missing ${missing.name}` } };
      return { text: prompt.text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? ''), parts: [] };
    },
    mcp_remove: (a) => {
      settings.mcp_servers = settings.mcp_servers.filter((s) => s.name !== a.name);
      for (const k of Object.keys(secrets)) if (k.startsWith(`mcp:${a.name}:`)) delete secrets[k];
      return copy(settings);
    },
  };

  w.__TAURI_INTERNALS__.invoke = async (cmd: string, args: Record<string, unknown> = {}) => {
    const handler = (handlers as unknown as FakeTable)[cmd];
    if (!handler) return original(cmd, args);
    w.__hearth.calls.push({ cmd, args });
    return handler(args);
  };
}
