//! Settings → Security: what the OS sandbox of the agent's commands gives on this system.

use hearth_protocol::SandboxStatus;

use crate::state::{to_error, CommandResult};

/// Starts a program in the sandbox to see what applies (off the runtime's threads).
#[tauri::command]
pub async fn sandbox_status() -> CommandResult<SandboxStatus> {
    tokio::task::spawn_blocking(hearth_engine::sandbox_status)
        .await
        .map_err(to_error)
}
