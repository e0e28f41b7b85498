//! Signing in to and out of a URL MCP server's OAuth authorization server from Settings → MCP
//! servers: the authorization page opens in the system browser, the redirect comes back to a
//! loopback port, the tokens go to the keychain and the server restarts with them.

use hearth_protocol::AppError;
use tauri::State;

use crate::commands::mcp::mcp_error;
use crate::state::{AppState, CommandResult};

#[tauri::command]
pub async fn mcp_sign_in(state: State<'_, AppState>, name: String) -> CommandResult<()> {
    known(&state, &name)?;
    let secrets = state.secrets.clone();
    let secret = move |account: &str| secrets.get(account).ok().flatten();
    state.mcp.sign_in(&name, &secret).await.map_err(mcp_error)
}

#[tauri::command]
pub async fn mcp_sign_out(state: State<'_, AppState>, name: String) -> CommandResult<()> {
    known(&state, &name)?;
    let secrets = state.secrets.clone();
    let secret = move |account: &str| secrets.get(account).ok().flatten();
    state.mcp.sign_out(&name, &secret).map_err(mcp_error)
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
