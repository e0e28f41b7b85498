//! The Knowledge page: the index's status, a pass started in the background (its progress sent
//! to the window as it moves), the search the model's `knowledge_search` does, and opening a
//! cited file at its page or line.

use hearth_ipc_macros::command;
use std::path::Path;

use hearth_engine::{knowledge_folders, Knowledge};
use hearth_knowledge::{find_viewers, launch_at, Place, Viewer};
use hearth_protocol::{AppError, Citation, KnowledgeStatus, Opened};
use tauri::{AppHandle, Manager, State};

use crate::events::KNOWLEDGE_PROGRESS;
use crate::startup_problem::{open_with_os, spawn_detached};
use crate::state::{AppState, CommandResult};

/// The app's knowledge base on the folders of the current settings.
fn knowledge(state: &AppState) -> Knowledge {
    let knowledge = state.builder.knowledge().clone();
    knowledge.set_folders(knowledge_folders(&state.settings(), &state.dir));
    knowledge
}

fn failed(reason: impl std::fmt::Display) -> AppError {
    AppError::KnowledgeFailed {
        reason: reason.to_string(),
    }
}

#[command]
pub async fn knowledge_status(state: State<'_, AppState>) -> CommandResult<KnowledgeStatus> {
    Ok(knowledge(&state).status().await?)
}

/// Starts a pass over what changed (after the running one, if any).
#[command]
pub async fn knowledge_rebuild(state: State<'_, AppState>) -> CommandResult<bool> {
    Ok(knowledge(&state).start_index())
}

#[command]
pub async fn knowledge_search(
    state: State<'_, AppState>,
    query: String,
    limit: usize,
) -> CommandResult<Vec<Citation>> {
    Ok(knowledge(&state).search(&query, limit).await?)
}

/// Opens an indexed file (only those) at the citation's place (a PDF page, a text line) when an
/// installed viewer takes it, else in the app the OS gives its type; which it did.
#[command]
pub async fn open_knowledge_file(
    state: State<'_, AppState>,
    path: String,
    unit: String,
    first: u64,
) -> CommandResult<Opened> {
    let indexed = state
        .db
        .read(|store| store.knowledge_files(None))
        .await
        .map_err(failed)?
        .into_iter()
        .any(|f| f.path == path);
    if !indexed {
        return Err(AppError::NotInKnowledge { path });
    }
    tokio::task::spawn_blocking(move || open_at(Path::new(&path), &unit, first))
        .await
        .map_err(failed)?
}

/// Opens `file` at the place of `unit` `first` if a viewer found takes it (a viewer that fails
/// to start falls back to the default app); which it did.
fn open_at(file: &Path, unit: &str, first: u64) -> CommandResult<Opened> {
    let Some(place) = Place::of(file, unit, first) else {
        return open_with_os(file).map(|()| Opened::NoPlace);
    };
    let found = find_viewers(std::env::var_os("PATH").as_deref(), |name| {
        std::env::var_os(name)
    });
    if let Some(launch) = launch_at(&found, default_viewer(file), file, place) {
        let mut command = std::process::Command::new(&launch.program);
        command.args(&launch.args);
        match spawn_detached(command, file) {
            Ok(()) => return Ok(Opened::AtPlace),
            Err(error) => {
                tracing::warn!(?error, program = %launch.program.display(), "the viewer did not start")
            }
        }
    }
    open_with_os(file).map(|()| Opened::NoViewer)
}

/// The viewer the desktop's default app for `file`'s type is, when it is a known one (Linux and
/// the BSDs, through `xdg-mime`); elsewhere none, so the first viewer found is used.
fn default_viewer(file: &Path) -> Option<Viewer> {
    if !cfg!(all(unix, not(target_os = "macos"))) {
        return None;
    }
    let query = |args: &[&std::ffi::OsStr]| {
        let output = std::process::Command::new("xdg-mime")
            .arg("query")
            .args(args)
            .stderr(std::process::Stdio::null())
            .output()
            .ok()?;
        output
            .status
            .success()
            .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
    };
    let mime = query(&["filetype".as_ref(), file.as_os_str()])?;
    Viewer::of_desktop_entry(&query(&["default".as_ref(), mime.as_ref()])?)
}

/// Sends the progress to the window as it moves, starts the first pass and, when the settings
/// say so, follows changes (call once, in `setup`).
pub fn start(app: &AppHandle) {
    let state = app.state::<AppState>();
    let knowledge = knowledge(&state);
    let window = app.clone();
    knowledge.on_progress(std::sync::Arc::new(move |progress| {
        if let Err(error) = KNOWLEDGE_PROGRESS.emit(&window, progress) {
            tracing::warn!(%error, "indexing progress not sent to the window");
        }
    }));
    let watch = state.settings().knowledge.watch;
    state.tasks.spawn(async move {
        knowledge.start_index();
        knowledge.set_watching(watch);
    });
}

/// After the knowledge settings changed: follows the saved folders, or stops following them, as
/// `knowledge.watch` now says, and starts a pass at once (a folder just added is indexed without
/// waiting for a change in it; one removed leaves the index).
pub fn apply(state: &AppState) {
    let knowledge = knowledge(state);
    knowledge.set_watching(state.settings().knowledge.watch);
    knowledge.start_index();
}
