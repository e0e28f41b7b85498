//! Settings → Models downloads: starting one from a URL or a Hugging Face file through the
//! network guard, pausing, resuming and cancelling it by id, and each change of it sent to the
//! window as a [`MODEL_DOWNLOAD`](crate::events::MODEL_DOWNLOAD) event.

use hearth_ipc_macros::command;
use std::sync::Arc;

use hearth_local::{DownloadSource, Downloader};
use hearth_protocol::{ModelDownload, StartDownloadParams};
use tauri::{AppHandle, Manager, State};

use crate::events::MODEL_DOWNLOAD;
use crate::state::{AppState, CommandResult};

/// Sends every change of a download to the window (call once, in `setup`).
pub fn start(app: &AppHandle) {
    let window = app.clone();
    let state = app.state::<AppState>();
    state
        .builder
        .local()
        .downloads()
        .on_change(Arc::new(move |download| {
            if let Err(error) = MODEL_DOWNLOAD.emit(&window, download) {
                tracing::warn!(%error, "download progress not sent to the window");
            }
        }));
}

/// A downloader that reaches local hosts only as the settings' `allow_local_hosts` say.
fn downloader(state: &AppState) -> CommandResult<Downloader> {
    Downloader::new(&state.settings().allow_local_hosts)
}

#[command]
pub async fn model_downloads(state: State<'_, AppState>) -> CommandResult<Vec<ModelDownload>> {
    Ok(state.builder.local().downloads().list())
}

#[command]
pub async fn start_model_download(
    state: State<'_, AppState>,
    params: StartDownloadParams,
) -> CommandResult<ModelDownload> {
    let source = DownloadSource::parse(&params.source, params.file.as_deref())?;
    let local = state.builder.local();
    local
        .downloads()
        .start(local, downloader(&state)?, source, params.sha256.as_deref())
}

#[command]
pub async fn pause_model_download(state: State<'_, AppState>, id: String) -> CommandResult<()> {
    state.builder.local().downloads().pause(&id);
    Ok(())
}

#[command]
pub async fn resume_model_download(state: State<'_, AppState>, id: String) -> CommandResult<()> {
    let local = state.builder.local();
    local.downloads().resume(local, downloader(&state)?, &id);
    Ok(())
}

/// Stops the download and deletes its partial file (a failed one is only dismissed).
#[command]
pub async fn cancel_model_download(state: State<'_, AppState>, id: String) -> CommandResult<()> {
    let local = state.builder.local();
    local.downloads().cancel(local, &id);
    Ok(())
}
