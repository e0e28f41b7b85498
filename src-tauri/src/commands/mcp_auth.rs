//! Signing in to and out of a URL MCP server's OAuth authorization server from Settings → MCP
//! servers: the authorization page opens in the system browser, the redirect comes back to a
//! loopback port, the tokens go to the keychain and the server restarts with them. The secret
//! of a pre-registered OAuth client is kept in the keychain too (only a masked hint comes back).

use hearth_core::{SecretError, SecretStore};
use hearth_engine::mask_secret;
use hearth_ipc_macros::command;
use hearth_mcp::oauth::client_secret_account;
use hearth_protocol::{AppError, KeyStatus};
use tauri::State;

use crate::commands::mcp::mcp_error;
use crate::commands::settings::{key_status, keychain};
use crate::state::{AppState, CommandResult};

#[command]
pub async fn mcp_sign_in(state: State<'_, AppState>, name: String) -> CommandResult<()> {
    known(&state, &name)?;
    let secrets = state.secrets.clone();
    let secret = move |account: &str| secrets.get(account).ok().flatten();
    state.mcp.sign_in(&name, &secret).await.map_err(mcp_error)
}

#[command]
pub async fn mcp_sign_out(state: State<'_, AppState>, name: String) -> CommandResult<()> {
    known(&state, &name)?;
    let secrets = state.secrets.clone();
    let secret = move |account: &str| secrets.get(account).ok().flatten();
    state.mcp.sign_out(&name, &secret).map_err(mcp_error)
}

/// Whether the server `name`'s pre-registered OAuth client has a secret in the keychain.
#[command]
pub async fn mcp_client_secret_status(
    state: State<'_, AppState>,
    name: String,
) -> CommandResult<KeyStatus> {
    known(&state, &name)?;
    let account = client_secret_account(&name);
    key_status(&state, name, account).await
}

/// Stores the secret of the server `name`'s pre-registered OAuth client and restarts the server
/// so that it signs in (and refreshes its tokens) with it.
#[command]
pub async fn set_mcp_client_secret(
    state: State<'_, AppState>,
    name: String,
    secret: String,
) -> CommandResult<KeyStatus> {
    known(&state, &name)?;
    let secret = secret.trim().to_string();
    if secret.is_empty() {
        return Err(AppError::EmptyKey);
    }
    let server = name.clone();
    let status = keychain(&state, move |store| {
        store_client_secret(store, &server, &secret)
    })
    .await?;
    tracing::info!(server = %name, "MCP OAuth client secret stored in the OS keychain");
    restart(&state, &name);
    Ok(status)
}

/// Deletes the secret of the server `name`'s OAuth client and restarts the server without it.
#[command]
pub async fn delete_mcp_client_secret(
    state: State<'_, AppState>,
    name: String,
) -> CommandResult<()> {
    known(&state, &name)?;
    let account = client_secret_account(&name);
    keychain(&state, move |store| store.delete(&account)).await?;
    restart(&state, &name);
    Ok(())
}

fn store_client_secret(
    store: &dyn SecretStore,
    server: &str,
    secret: &str,
) -> Result<KeyStatus, SecretError> {
    store.set(&client_secret_account(server), secret)?;
    Ok(KeyStatus {
        provider_id: server.to_string(),
        stored: true,
        masked: Some(mask_secret(secret)),
        keychain_unavailable: false,
    })
}

/// Starts the server `name` afresh, its secrets read again.
fn restart(state: &AppState, name: &str) {
    let secrets = state.secrets.clone();
    let secret = move |account: &str| secrets.get(account).ok().flatten();
    state.mcp.restart(name, &secret);
}

fn known(state: &AppState, name: &str) -> CommandResult<()> {
    if state.settings().mcp_servers.iter().any(|s| s.name == name) {
        Ok(())
    } else {
        Err(AppError::UnknownMcpServer {
            name: name.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use hearth_mcp::oauth::{MemorySecrets, OAuthSpec};
    use hearth_mcp::secret_accounts;
    use hearth_protocol::McpServerSettings;

    use super::*;

    /// A URL server with a pre-registered client.
    fn registered(name: &str) -> McpServerSettings {
        let mut server = McpServerSettings::http(name, "https://mcp.example.com/mcp");
        server.oauth.client_id = Some("hearth-desktop".into());
        server
    }

    #[test]
    fn the_stored_client_secret_is_the_one_sign_in_uses_and_goes_with_the_server() {
        let store = MemorySecrets::default();
        let server = registered("remote");
        let lookup = |account: &str| store.get(account).unwrap();
        assert_eq!(OAuthSpec::of(&server, &lookup).client_secret, None);
        let account = client_secret_account("remote");
        assert!(!hearth_engine::key_status(&store, "remote", &account).stored);

        let status = store_client_secret(&store, "remote", "s3cret-value").unwrap();
        assert!(status.stored);
        assert_eq!(status.masked.as_deref(), Some("••••alue"));
        assert_eq!(status.provider_id, "remote");
        let spec = OAuthSpec::of(&server, &lookup);
        assert_eq!(spec.client_secret.as_deref(), Some("s3cret-value"));
        // Another server's client keeps its own (absent) secret.
        assert_eq!(
            OAuthSpec::of(&registered("other"), &lookup).client_secret,
            None
        );
        // Removing the server deletes the account the secret was stored in.
        assert!(secret_accounts(&server).contains(&client_secret_account("remote")));
    }
}
