//! Generated images and audio read back from a chat's workspace for the chat to show and play
//! (through the file sandbox; only image and audio files, within a size cap).

use base64::Engine as _;
use hearth_ipc_macros::command;
use hearth_protocol::{AppError, WorkspaceMedia};
use tauri::State;

use crate::commands::attachments::workspace;
use crate::state::{AppState, CommandResult};

#[command]
pub async fn read_workspace_media(
    state: State<'_, AppState>,
    session_id: String,
    path: String,
) -> CommandResult<WorkspaceMedia> {
    let workspace = workspace(&state, &session_id).await?;
    let shown = path.clone();
    let (mime_type, bytes) =
        tokio::task::spawn_blocking(move || hearth_tools::media::read_media(&workspace, &path))
            .await
            .map_err(AppError::internal)?
            .map_err(|e| AppError::CannotOpen {
                path: shown,
                reason: e.message,
            })?;
    Ok(WorkspaceMedia {
        mime_type: mime_type.to_string(),
        data_base64: base64::engine::general_purpose::STANDARD.encode(bytes),
    })
}
