//! The main window: closing hides it to the tray (the first time, a notification says so, and
//! pending approvals are denied); `show_main` brings it back.

use hearth_engine::Notice;
use tauri::{AppHandle, Manager, Window, WindowEvent};

use crate::state::AppState;

pub const MAIN: &str = "main";

/// Shows, unminimizes and focuses the main window.
pub fn show_main(app: &AppHandle) {
    if let Some(window) = app.get_webview_window(MAIN) {
        let _ = window.show();
        let _ = window.unminimize();
        let _ = window.set_focus();
    }
}

/// Handles window events for the whole app.
pub fn on_window_event(window: &Window, event: &WindowEvent) {
    if window.label() != MAIN {
        return;
    }
    if let WindowEvent::CloseRequested { api, .. } = event {
        api.prevent_close();
        let _ = window.hide();
        let app = window.app_handle();
        let Some(state) = app.try_state::<AppState>() else {
            return;
        };
        state.approver.deny_all();
        let marker = state.dir.root().join(".tray-notice-shown");
        if !marker.exists() {
            let _ = std::fs::write(&marker, b"1");
            crate::notices::show(
                app,
                state.notifier.clone(),
                Notice {
                    title: "Hearth is still running".to_string(),
                    body: "Hearth keeps running in the tray so scheduled jobs can fire. Use the tray menu to open it again or quit.".to_string(),
                    urgent: false,
                    sound: false,
                },
                None,
            );
        }
    }
}
