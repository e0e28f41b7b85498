// MCP server settings for the tests: a server as the settings hold it, with the defaults the
// app writes and only what a test cares about given.
import type { McpServerSettings } from '../../src/lib/bindings/McpServerSettings';

export function mcpServer(name: string, given: Partial<McpServerSettings> = {}): McpServerSettings {
  return {
    name,
    args: [],
    env: {},
    secret_env: [],
    headers: {},
    secret_headers: [],
    enabled: true,
    startup_timeout_secs: 30,
    call_timeout_secs: 60,
    oauth: { client_id: null, client_metadata_url: null, scopes: [] },
    allow_tools: [],
    deny_tools: [],
    trust_read_only: false,
    tools: {},
    ...given,
  };
}
