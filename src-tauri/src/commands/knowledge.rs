//! The Knowledge page: the index's status and progress, a pass started in the background, the
//! search the model's `knowledge_search` does, and opening a cited file in its default app.

use hearth_engine::{knowledge_folders, Knowledge};
use hearth_protocol::{AppError, Citation, KnowledgeStatus};
use tauri::State;

use crate::state::{to_error, AppState, CommandResult};

/// The app's knowledge base on the folders of the current settings.
fn knowledge(state: &AppState) -> Knowledge {
    let knowledge = state.builder.knowledge().clone();
    knowledge.set_folders(knowledge_folders(&state.settings(), &state.dir));
    knowledge
}

#[tauri::command]
pub async fn knowledge_status(state: State<'_, AppState>) -> CommandResult<KnowledgeStatus> {
    knowledge(&state).status().map_err(to_error)
}

/// Starts a pass over what changed; false when one is running already.
#[tauri::command]
pub async fn knowledge_rebuild(state: State<'_, AppState>) -> CommandResult<bool> {
    Ok(knowledge(&state).start_index())
}

#[tauri::command]
pub async fn knowledge_search(
    state: State<'_, AppState>,
    query: String,
    limit: usize,
) -> CommandResult<Vec<Citation>> {
    knowledge(&state)
        .search(&query, limit)
        .await
        .map_err(to_error)
}

/// Opens an indexed file (only those) in the app the OS gives its type.
#[tauri::command]
pub fn open_knowledge_file(state: State<'_, AppState>, path: String) -> CommandResult<()> {
    let indexed = state
        .store
        .knowledge_files(None)
        .map_err(to_error)?
        .into_iter()
        .any(|f| f.path == path);
    if !indexed {
        return Err(AppError::other(format!(
            "{path} is not in the knowledge base"
        )));
    }
    crate::startup_problem::open_with_os(std::path::Path::new(&path))
}

/// Starts the first pass and, when the settings say so, follows changes (call once, in `setup`).
pub fn start(state: &AppState) {
    let knowledge = knowledge(state);
    let watch = state.settings().knowledge.watch;
    tauri::async_runtime::spawn(async move {
        knowledge.start_index();
        if watch {
            knowledge.watch();
        }
    });
}
