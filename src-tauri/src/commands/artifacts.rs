//! The artifact side panel: an artifact's content and counts, and "Save as…", which writes it
//! where the user picks in the OS's save dialog (the window gets no file-writing permission).

use hearth_ipc_macros::command;
use hearth_protocol::{AppError, ArtifactView};
use hearth_store::Artifact;
use tauri::{AppHandle, State};
use tauri_plugin_dialog::DialogExt;

use crate::state::{AppState, CommandResult};

async fn artifact(state: &AppState, id: &str) -> CommandResult<Artifact> {
    let key = id.to_string();
    state
        .db
        .read(move |store| store.get_artifact(&key))
        .await
        .map_err(|e| AppError::Store {
            message: e.to_string(),
        })?
        .ok_or_else(|| AppError::ArtifactNotFound { id: id.to_string() })
}

#[command]
pub async fn artifact_view(state: State<'_, AppState>, id: String) -> CommandResult<ArtifactView> {
    let artifact = artifact(&state, &id).await?;
    let dir = state.dir.root().to_path_buf();
    let unreadable = |reason: String| AppError::ArtifactUnreadable {
        id: id.clone(),
        reason,
    };
    tokio::task::spawn_blocking(move || hearth_tools::artifacts::artifact_view(&dir, &artifact))
        .await
        .map_err(|e| unreadable(e.to_string()))?
        .map_err(|e| unreadable(e.to_string()))
}

/// Asks where to save the artifact and writes it there; the path written, or `None` when the
/// user cancelled.
#[command]
pub async fn save_artifact(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
) -> CommandResult<Option<String>> {
    let artifact = artifact(&state, &id).await?;
    let source = hearth_tools::artifacts::artifact_file(state.dir.root(), &artifact);
    let picked = app
        .dialog()
        .file()
        .set_file_name(&artifact.filename)
        .blocking_save_file();
    let Some(target) = picked.and_then(|p| p.into_path().ok()) else {
        return Ok(None);
    };
    let written = target.clone();
    let not_saved = |reason: String| AppError::ArtifactNotSaved {
        path: target.display().to_string(),
        reason,
    };
    tokio::task::spawn_blocking(move || std::fs::copy(&source, &written))
        .await
        .map_err(|e| not_saved(e.to_string()))?
        .map_err(|e| not_saved(e.to_string()))?;
    Ok(Some(target.display().to_string()))
}
