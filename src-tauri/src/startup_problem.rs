//! The start-up error screen: when Hearth cannot open its data (a `config.toml` with an unknown
//! key or value, a database it cannot open), the window shows why and which file to fix instead
//! of the app — nothing else starts (no tray, jobs or tools), so nothing runs under settings
//! Hearth could not read. The screen can open the data dir in the file manager (Hearth's own
//! command, for that one folder: the window gets no general opener permission).

use hearth_ipc_macros::command;
use std::path::Path;

use hearth_protocol::{AppError, StartupProblem};
use tauri::{AppHandle, State};

/// The URL fragment that makes the UI show the error screen.
const SCREEN: &str = "index.html#startup-problem";

/// The screen's commands (see `crate::commands::app_commands`).
macro_rules! screen_commands {
    ($($apply:ident)::+) => {
        $($apply)::+![
            crate::startup_problem::startup_problem,
            crate::startup_problem::quit_app,
            crate::startup_problem::restart_app,
            crate::startup_problem::open_data_folder,
        ]
    };
}
#[cfg(test)]
pub(crate) use screen_commands;

/// Runs the error screen until the user quits it (or asks to try again, which starts Hearth
/// anew).
pub fn run(problem: StartupProblem) {
    let mut context = tauri::generate_context!();
    for window in &mut context.config_mut().app.windows {
        window.url = tauri::WebviewUrl::App(SCREEN.into());
    }
    let built = tauri::Builder::default()
        .manage(problem)
        .invoke_handler(screen_commands!(tauri::generate_handler))
        .build(context);
    match built {
        Ok(app) => app.run(|_, _| {}),
        Err(error) => tracing::error!(%error, "the start-up error screen could not be shown"),
    }
}

#[command]
fn startup_problem(problem: State<'_, StartupProblem>) -> StartupProblem {
    problem.inner().clone()
}

#[command]
fn quit_app(app: AppHandle) {
    app.exit(1);
}

#[command]
fn restart_app(app: AppHandle) {
    app.restart();
}

/// Shows the data dir (or, when it could not be created, the nearest folder above it) in the
/// file manager.
#[command]
fn open_data_folder(problem: State<'_, StartupProblem>) -> Result<(), AppError> {
    let wanted = Path::new(&problem.data_dir);
    let folder = hearth_engine::existing_folder(wanted).ok_or_else(|| AppError::NotAFolder {
        path: problem.data_dir.clone(),
    })?;
    open_with_os(folder)
}

/// Opens `path` (a folder in the file manager, a file in its default app).
pub(crate) fn open_with_os(path: &Path) -> Result<(), AppError> {
    spawn_detached(file_manager(path), path)
}

/// Starts `command` (which opens `path`) without waiting for it.
pub(crate) fn spawn_detached(
    mut command: std::process::Command,
    path: &Path,
) -> Result<(), AppError> {
    let mut child = command.spawn().map_err(|error| AppError::CannotOpen {
        path: path.display().to_string(),
        reason: error.to_string(),
    })?;
    // Reaped in the background: the program may outlive the window.
    std::thread::spawn(move || child.wait());
    Ok(())
}

fn file_manager(folder: &Path) -> std::process::Command {
    #[cfg(target_os = "macos")]
    let mut command = std::process::Command::new("open");
    #[cfg(target_os = "windows")]
    let mut command = std::process::Command::new("explorer");
    #[cfg(not(any(target_os = "macos", target_os = "windows")))]
    let mut command = std::process::Command::new("xdg-open");
    command.arg(folder);
    command
}
