//! The sign-in itself ([`sign_in`]: discovery, registration, the browser, the code exchange,
//! tokens saved), signing out, and the HTTP client a connection uses: it adds the stored
//! access token, refreshes it when it expires or the server rejects it, and otherwise lets the
//! server's `401` challenge through so the server is shown as needing sign-in.

use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::auth::{
    AuthClient, AuthorizationManager, AuthorizationRequest, CredentialStore, OAuthState,
    WWWAuthenticateParams,
};

use super::loopback::Loopback;
use super::store::KeychainCredentials;
use super::{tokens_account, OAuthEnv, OAuthError, OAuthSpec};

/// How long the authorization page may take.
const SIGN_IN_MINUTES: u64 = 5;

/// Signs in to the server `name` at `url`: discovery (seeded by `challenge`, the server's
/// `WWW-Authenticate` value, when there is one), the authorization page through `env`'s
/// browser, the redirect to a loopback port, the code exchanged (the `iss` of the redirect
/// checked) and the tokens saved to `env`'s secrets.
pub async fn sign_in(
    name: &str,
    url: &str,
    spec: &OAuthSpec,
    challenge: Option<&str>,
    env: &OAuthEnv,
) -> Result<(), OAuthError> {
    let loopback = Loopback::bind().await?;
    let mut manager = AuthorizationManager::new(url).await?;
    manager.set_credential_store(KeychainCredentials::new(name, env.secrets.clone()));
    let mut state = OAuthState::Unauthorized(manager);
    let mut request = AuthorizationRequest::new(loopback.redirect_uri())
        .with_client_name("Hearth")
        .with_initial_scope_selection();
    if let Some(challenge) = challenge {
        request = request.with_challenge(challenge);
    }
    if let Some(client_id) = &spec.client_id {
        request = request.with_preregistered_client(client_id);
        if let Some(secret) = &spec.client_secret {
            request = request.with_client_secret(secret);
        }
    }
    if let Some(document) = &spec.client_metadata_url {
        request = request.with_client_metadata_url(document);
    }
    let scopes = requested_scopes(name, url, spec, challenge, env).await;
    if !scopes.is_empty() {
        request = request.with_scopes(scopes);
    }
    state.start_authorization(request).await?;
    let address = state.get_authorization_url().await?;
    let waiting = tokio::spawn(loopback.callback());
    if let Err(error) = env.browser.open(&address).await {
        waiting.abort();
        return Err(OAuthError::Browser(error));
    }
    let limit = Duration::from_secs(SIGN_IN_MINUTES * 60);
    let callback = match tokio::time::timeout(limit, waiting).await {
        Ok(Ok(callback)) => callback?,
        Ok(Err(joined)) => return Err(OAuthError::Browser(joined.to_string())),
        Err(_) => return Err(OAuthError::TimedOut(SIGN_IN_MINUTES)),
    };
    state.handle_callback_url(&callback).await?;
    Ok(())
}

/// The scopes to ask for: the settings' own; on a step-up challenge (a scope the tokens lack)
/// the scopes already granted together with the challenged ones, so none is lost; otherwise
/// none (chosen from the challenge and metadata).
async fn requested_scopes(
    name: &str,
    url: &str,
    spec: &OAuthSpec,
    challenge: Option<&str>,
    env: &OAuthEnv,
) -> Vec<String> {
    if !spec.scopes.is_empty() {
        return spec.scopes.clone();
    }
    let (Some(challenge), Ok(base)) = (challenge, reqwest::Url::parse(url)) else {
        return Vec::new();
    };
    let challenged = WWWAuthenticateParams::parse(challenge, &base).scope;
    let Some(challenged) = challenged else {
        return Vec::new();
    };
    let stored = KeychainCredentials::new(name, env.secrets.clone())
        .load()
        .await
        .ok()
        .flatten();
    let Some(stored) = stored.filter(|s| s.token_response.is_some()) else {
        return Vec::new();
    };
    let mut scopes = stored.granted_scopes;
    for scope in challenged.split_whitespace() {
        if !scopes.iter().any(|s| s == scope) {
            scopes.push(scope.to_string());
        }
    }
    scopes
}

/// Forgets `name`'s tokens (and the client registered for them).
pub fn sign_out(name: &str, env: &OAuthEnv) -> Result<(), OAuthError> {
    env.secrets
        .delete(&tokens_account(name))
        .map_err(|e| OAuthError::Secrets(e.to_string()))
}

/// The HTTP client of a connection to `name` at `url`, with its stored tokens when there are
/// any (a keychain or authorization server that cannot be read leaves it without: the
/// server's challenge then asks for sign-in).
pub(crate) async fn authorized_client(
    name: &str,
    url: &str,
    env: &OAuthEnv,
) -> Result<AuthClient<reqwest::Client>, String> {
    let mut manager = AuthorizationManager::new(url)
        .await
        .map_err(|e| format!("url `{url}`: {e}"))?;
    manager.set_credential_store(KeychainCredentials::new(name, Arc::clone(&env.secrets)));
    if let Err(error) = manager.initialize_from_store().await {
        tracing::warn!(server = name, %error, "stored OAuth tokens not used");
    }
    let http = hearth_net::http::client_builder()
        .build()
        .map_err(|e| format!("no HTTP client: {e}"))?;
    Ok(AuthClient::new(http, manager))
}
