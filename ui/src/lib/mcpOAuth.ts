// The OAuth settings of a URL MCP server as Settings → MCP servers edits them: the fields of
// `[mcp_servers.oauth]` as typed (scopes space- or comma-separated) and back, empty fields left
// out and the client metadata URL checked to be https. The client secret is typed here too but
// goes to the keychain, never into the settings.
import type { McpOAuthSettings } from './bindings/McpOAuthSettings';

export interface OAuthDraft {
  clientId: string;
  metadataUrl: string;
  /** Space- or comma-separated. */
  scopes: string;
  /** A new client secret to store; empty keeps the stored one. */
  secret: string;
}

export const oauthDraft = (oauth: McpOAuthSettings): OAuthDraft => ({
  clientId: oauth.client_id ?? '',
  metadataUrl: oauth.client_metadata_url ?? '',
  scopes: oauth.scopes.join(' '),
  secret: '',
});

/** The scopes of `text`, split at spaces and commas, each once, in the order typed. */
export function parseScopes(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

/** Whether `text` is an absolute https:// address with a host. */
function isHttps(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}

export type OAuthProblem = 'metadataUrl' | 'secretWithoutClient';

/** The `[mcp_servers.oauth]` settings of `draft` (never its secret), or what is wrong with it. */
export function oauthSettings(draft: OAuthDraft): { oauth: McpOAuthSettings } | { problem: OAuthProblem } {
  const clientId = draft.clientId.trim();
  const metadataUrl = draft.metadataUrl.trim();
  if (metadataUrl && !isHttps(metadataUrl)) return { problem: 'metadataUrl' };
  if (draft.secret.trim() && !clientId) return { problem: 'secretWithoutClient' };
  return { oauth: { client_id: clientId || null, client_metadata_url: metadataUrl || null, scopes: parseScopes(draft.scopes) } };
}
