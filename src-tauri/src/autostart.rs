//! Start at login (off by default), through tauri-plugin-autostart.

use tauri::AppHandle;
use tauri_plugin_autostart::ManagerExt;

/// Turns start-at-login on or off; failures are logged (some desktops have no autostart).
pub fn apply(app: &AppHandle, enabled: bool) {
    let launcher = app.autolaunch();
    let current = launcher.is_enabled().unwrap_or(false);
    let result = match (enabled, current) {
        (true, false) => launcher.enable(),
        (false, true) => launcher.disable(),
        _ => Ok(()),
    };
    if let Err(error) = result {
        tracing::warn!(%error, enabled, "could not change start at login");
    }
}
