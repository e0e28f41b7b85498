//! The artifact side panel: an artifact's content and counts, and "Save as…", which writes it
//! where the user picks in the OS's save dialog (the window gets no file-writing permission).

use hearth_protocol::{AppError, ArtifactView};
use hearth_store::Artifact;
use tauri::{AppHandle, State};
use tauri_plugin_dialog::DialogExt;

use crate::state::{to_error, AppState, CommandResult};

fn artifact(state: &AppState, id: &str) -> CommandResult<Artifact> {
    state
        .store
        .get_artifact(id)
        .map_err(to_error)?
        .ok_or_else(|| AppError::other(format!("no artifact {id}")))
}

#[tauri::command]
pub async fn artifact_view(state: State<'_, AppState>, id: String) -> CommandResult<ArtifactView> {
    let artifact = artifact(&state, &id)?;
    let dir = state.dir.root().to_path_buf();
    tokio::task::spawn_blocking(move || hearth_tools::artifacts::artifact_view(&dir, &artifact))
        .await
        .map_err(to_error)?
        .map_err(to_error)
}

/// Asks where to save the artifact and writes it there; the path written, or `None` when the
/// user cancelled.
#[tauri::command]
pub async fn save_artifact(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
) -> CommandResult<Option<String>> {
    let artifact = artifact(&state, &id)?;
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
    tokio::task::spawn_blocking(move || std::fs::copy(&source, &written))
        .await
        .map_err(to_error)?
        .map_err(|e| to_error(format!("cannot save to {}: {e}", target.display())))?;
    Ok(Some(target.display().to_string()))
}
