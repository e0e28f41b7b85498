//! Signing in to remote MCP servers with OAuth 2.1: authorization code with PKCE through a
//! loopback redirect (`http://127.0.0.1:<port>/callback`), the authorization page opened in
//! the system browser ([`Browser`]); discovery (RFC 9728 protected-resource metadata, RFC 8414
//! / OIDC authorization-server metadata), client registration (pre-registered, client ID
//! metadata document, or dynamic registration) and token refresh come from `rmcp`'s `auth`
//! feature. Tokens live in the keychain (`mcp:<name>:oauth`).

mod browser;
mod flow;
mod loopback;
mod store;

use std::sync::{Arc, RwLock};

use hearth_core::{KeyringStore, SecretStore};
use hearth_protocol::McpServerSettings;

pub use browser::{Browser, FollowRedirects, SystemBrowser};
pub(crate) use flow::authorized_client;
pub use flow::{sign_in, sign_out};
pub use store::MemorySecrets;

/// The keychain account of `server`'s OAuth tokens (and the client registered for them).
pub fn tokens_account(server: &str) -> String {
    format!("mcp:{server}:oauth")
}

/// The keychain account of the secret of `server`'s pre-registered OAuth client.
pub fn client_secret_account(server: &str) -> String {
    format!("mcp:{server}:oauth:client-secret")
}

/// How Hearth identifies itself to one server's authorization server.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OAuthSpec {
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    pub client_metadata_url: Option<String>,
    pub scopes: Vec<String>,
}

impl OAuthSpec {
    /// The OAuth settings of `server`, the client secret looked up through `secret`.
    pub fn of(server: &McpServerSettings, secret: &dyn Fn(&str) -> Option<String>) -> OAuthSpec {
        let oauth = &server.oauth;
        OAuthSpec {
            client_id: oauth.client_id.clone(),
            client_secret: oauth
                .client_id
                .as_ref()
                .and_then(|_| secret(&client_secret_account(&server.name))),
            client_metadata_url: oauth.client_metadata_url.clone(),
            scopes: oauth.scopes.clone(),
        }
    }
}

/// Where tokens are kept and how the authorization page is shown.
#[derive(Clone)]
pub struct OAuthEnv {
    pub secrets: Arc<dyn SecretStore>,
    pub browser: Arc<dyn Browser>,
}

impl Default for OAuthEnv {
    /// The OS keychain and the system browser.
    fn default() -> Self {
        OAuthEnv {
            secrets: Arc::new(KeyringStore::new()),
            browser: Arc::new(SystemBrowser),
        }
    }
}

/// The environment every server of a manager signs in with (replaceable before they start).
pub(crate) type SharedOAuth = Arc<RwLock<OAuthEnv>>;

/// Why signing in failed.
#[derive(Debug, thiserror::Error)]
pub enum OAuthError {
    #[error("MCP server `{0}` is not a URL server, so it has nothing to sign in to")]
    NotHttp(String),
    #[error("sign-in failed: {0}")]
    Auth(#[from] rmcp::transport::auth::AuthError),
    #[error("cannot open the authorization page: {0}")]
    Browser(String),
    #[error("cannot listen for the sign-in redirect on 127.0.0.1: {0}")]
    Loopback(#[from] std::io::Error),
    #[error("no sign-in completed within {0} minutes")]
    TimedOut(u64),
    #[error("the keychain: {0}")]
    Secrets(String),
}
