//! MCP server commands for Settings → MCP servers and the composer's `/mcp`: the servers'
//! status and tools, a restart, an import of `mcpServers` JSON (a file's text or pasted; the
//! secret-looking values go to the keychain), and a removal (its secrets deleted). Other
//! changes (enable, edit, per-tool approvals) are saved with the settings; all of them apply
//! without restarting the app.

use hearth_engine::save_settings as write_settings;
use hearth_ipc_macros::command;
use hearth_mcp::{check_servers, import_servers, secret_accounts};
use hearth_protocol::{AppError, McpServerSettings, McpServerView, Settings};
use tauri::State;

use crate::commands::settings::keychain;
use crate::state::{AppState, CommandResult};

#[command]
pub fn mcp_servers(state: State<'_, AppState>) -> Vec<McpServerView> {
    state.mcp.views()
}

#[command]
pub async fn mcp_restart(state: State<'_, AppState>, name: String) -> CommandResult<()> {
    let secrets = state.secrets.clone();
    let secret = move |account: &str| secrets.get(account).ok().flatten();
    if state.mcp.restart(&name, &secret) {
        Ok(())
    } else {
        Err(AppError::UnknownMcpServer { name })
    }
}

/// Adds the servers of `text` (`{"mcpServers": {…}}`); returns the settings saved.
#[command]
pub async fn mcp_import(state: State<'_, AppState>, text: String) -> CommandResult<Settings> {
    let imported = import_servers(&text).map_err(mcp_error)?;
    let mut settings = state.settings();
    settings
        .mcp_servers
        .extend(imported.iter().map(|i| i.server.clone()));
    check_servers(&settings.mcp_servers).map_err(mcp_error)?;
    let secrets: Vec<(String, String)> = imported.iter().flat_map(|i| i.secrets.clone()).collect();
    keychain(&state, move |store| {
        secrets
            .iter()
            .try_for_each(|(account, value)| store.set(account, value))
    })
    .await?;
    save(&state, settings.mcp_servers)
}

/// Removes the server `name` and deletes its secrets from the keychain; returns the settings
/// saved.
#[command]
pub async fn mcp_remove(state: State<'_, AppState>, name: String) -> CommandResult<Settings> {
    let mut servers = state.settings().mcp_servers;
    let Some(index) = servers.iter().position(|s| s.name == name) else {
        return Err(AppError::UnknownMcpServer { name });
    };
    let accounts = secret_accounts(&servers.remove(index));
    let saved = save(&state, servers)?;
    keychain(&state, move |store| {
        accounts
            .iter()
            .try_for_each(|account| store.delete(account))
    })
    .await?;
    Ok(saved)
}

/// Writes `servers` to `config.toml` and applies them; returns the settings saved.
fn save(state: &AppState, servers: Vec<McpServerSettings>) -> CommandResult<Settings> {
    let mut settings = state.settings();
    settings.mcp_servers = servers;
    write_settings(&state.dir.config(), &settings)?;
    state.apply_settings(settings.clone());
    Ok(settings)
}

/// A failed check or import of MCP servers, for the UI.
pub fn mcp_error(error: impl std::fmt::Display) -> AppError {
    AppError::McpServers {
        message: error.to_string(),
    }
}
