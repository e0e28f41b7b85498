//! Settings → Models: the GGUF files of the models folder, importing one (a picked or dropped
//! file, copied or linked), removing one.

use hearth_ipc_macros::command;
use std::path::PathBuf;

use hearth_protocol::{LocalModel, LocalModelsView};
use tauri::State;

use crate::state::{AppState, CommandResult};

#[command]
pub async fn local_models(state: State<'_, AppState>) -> CommandResult<LocalModelsView> {
    Ok(state.builder.local().catalog().view().await)
}

#[command]
pub async fn import_local_model(
    state: State<'_, AppState>,
    path: String,
    link: bool,
) -> CommandResult<LocalModel> {
    state
        .builder
        .local()
        .catalog()
        .import(&PathBuf::from(path), link)
        .await
}

/// Removes the file (a link, not its target); a loaded copy of it is unloaded first.
#[command]
pub async fn remove_local_model(state: State<'_, AppState>, name: String) -> CommandResult<()> {
    let local = state.builder.local();
    if local
        .loaded()
        .await
        .is_some_and(|(loaded, _)| loaded == name)
    {
        local.unload().await;
    }
    local.catalog().remove(&name)
}
