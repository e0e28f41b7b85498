//! Settings → Browser: which browser the agent would run, opening its window (to log in to a
//! site or watch), and clearing its profile.

use hearth_browser::{find_browser, BrowserConfig, BrowserTool};
use hearth_ipc_macros::command;
use hearth_protocol::{AppError, BrowserStatus};
use tauri::State;

use crate::state::{AppState, CommandResult};

#[command]
pub async fn browser_status(state: State<'_, AppState>) -> CommandResult<BrowserStatus> {
    let settings = state.settings();
    let found = find_browser(&settings.browser.executable).ok();
    Ok(BrowserStatus {
        executable: found.as_ref().map(|f| f.path.display().to_string()),
        source: found.map(|f| f.source.to_string()),
        running: state.builder.browsers().is_running().await,
    })
}

/// Starts the agent's browser with its window shown (or shows a new one), on its own profile.
#[command]
pub async fn open_agent_browser(state: State<'_, AppState>) -> CommandResult<()> {
    let settings = state.settings();
    let config = BrowserConfig::from_settings(&settings.browser, &settings.allow_local_hosts, true);
    BrowserTool::new(state.builder.browsers().clone(), config)
        .open_window()
        .await
        .map_err(|e| AppError::BrowserFailed { message: e.message })
}

/// Closes the agent's browser and deletes its profile (cookies, logins, cache).
#[command]
pub async fn clear_browser_data(state: State<'_, AppState>) -> CommandResult<()> {
    state
        .builder
        .browsers()
        .clear_data()
        .await
        .map_err(|e| AppError::FileSystem {
            message: format!("the browser's data could not be cleared: {e}"),
        })
}
