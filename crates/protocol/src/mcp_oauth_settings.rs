//! `[mcp_servers.oauth]` in `config.toml`: how Hearth identifies itself when it signs in to a
//! remote MCP server with OAuth. Everything is optional: by default Hearth registers itself
//! with the authorization server (dynamic client registration) and asks for the scopes the
//! server names.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// OAuth sign-in of one streamable HTTP server. A pre-registered client's secret (if it has
/// one) is in the keychain (`mcp:<name>:oauth:client-secret`), never in `config.toml`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(default, deny_unknown_fields)]
pub struct McpOAuthSettings {
    /// A client ID registered with the authorization server beforehand (skips registration).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// The HTTPS address of a client ID metadata document, used as the client ID when the
    /// authorization server accepts such documents.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_metadata_url: Option<String>,
    /// Scopes to ask for; empty asks for what the server's challenge or metadata names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
}
