//! The start-up error screen: when Hearth cannot open its data (a `config.toml` with an unknown
//! key or value, a database it cannot open), the window shows why and which file to fix instead
//! of the app — nothing else starts (no tray, jobs or tools), so nothing runs under settings
//! Hearth could not read.

use hearth_protocol::StartupProblem;
use tauri::{AppHandle, State};

/// The URL fragment that makes the UI show the error screen.
const SCREEN: &str = "index.html#startup-problem";

/// Runs the error screen until the user quits it (or asks to try again, which starts Hearth
/// anew).
pub fn run(problem: StartupProblem) {
    let mut context = tauri::generate_context!();
    for window in &mut context.config_mut().app.windows {
        window.url = tauri::WebviewUrl::App(SCREEN.into());
    }
    let built = tauri::Builder::default()
        .manage(problem)
        .invoke_handler(tauri::generate_handler![
            startup_problem,
            quit_app,
            restart_app
        ])
        .build(context);
    match built {
        Ok(app) => app.run(|_, _| {}),
        Err(error) => tracing::error!(%error, "the start-up error screen could not be shown"),
    }
}

#[tauri::command]
fn startup_problem(problem: State<'_, StartupProblem>) -> StartupProblem {
    problem.inner().clone()
}

#[tauri::command]
fn quit_app(app: AppHandle) {
    app.exit(1);
}

#[tauri::command]
fn restart_app(app: AppHandle) {
    app.restart();
}
