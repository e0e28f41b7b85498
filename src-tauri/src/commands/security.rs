//! Settings → Security and a chat's sandbox choices: what the OS sandbox of the agent's commands
//! gives on this system, and whether a chat runs sandboxed commands without asking (or outside
//! the sandbox).

use hearth_ipc_macros::command;
use hearth_protocol::{AppError, ChatSandbox, SandboxStatus};
use tauri::State;

use crate::state::{AppState, CommandResult};

/// Starts a program in the sandbox to see what applies (off the runtime's threads).
#[command]
pub async fn sandbox_status() -> CommandResult<SandboxStatus> {
    tokio::task::spawn_blocking(hearth_engine::sandbox_status)
        .await
        .map_err(AppError::internal)
}

/// What the chat `session_id` chose about its commands' sandbox.
#[command]
pub fn chat_sandbox(state: State<'_, AppState>, session_id: String) -> ChatSandbox {
    state.tools().chat_sandbox(&session_id)
}

/// Records what the chat `session_id` chose (the chat's "turn off").
#[command]
pub fn set_chat_sandbox(state: State<'_, AppState>, session_id: String, choice: ChatSandbox) {
    state.tools().set_chat_sandbox(&session_id, choice);
}
