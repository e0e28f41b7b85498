//! What closing the main window does: with a tray icon host it hides to the tray; without one
//! it follows `close_without_tray` — ask once (the UI's question, answered through
//! `answer_close`), keep running in the background (launching Hearth again opens the window),
//! or quit.

use hearth_protocol::CloseWithoutTray;
use tauri::{AppHandle, Manager};

use crate::events::CLOSE_ASK;
use crate::state::AppState;

/// What one close request does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CloseAction {
    /// Hide the window; the process and its jobs keep running.
    Hide,
    /// Keep the window and ask.
    Ask,
    Quit,
}

/// The action for a close request, given whether a tray icon host exists and the setting.
pub fn close_action(tray_host: bool, without_tray: CloseWithoutTray) -> CloseAction {
    match (tray_host, without_tray) {
        (true, _) | (false, CloseWithoutTray::Background) => CloseAction::Hide,
        (false, CloseWithoutTray::Ask) => CloseAction::Ask,
        (false, CloseWithoutTray::Quit) => CloseAction::Quit,
    }
}

/// Handles a close request of the main window (already prevented): looks for a tray icon host
/// off the event loop, then hides, asks or quits.
pub fn requested(app: &AppHandle) {
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        let tray_host = crate::tray_host::present().await;
        let Some(state) = app.try_state::<AppState>() else {
            return;
        };
        let action = close_action(tray_host, state.settings().close_without_tray);
        tracing::info!(tray_host, ?action, "main window close requested");
        act(&app, action, tray_host);
    });
}

/// Does `action`; `tray_host` picks the words of the first hide's notice.
pub fn act(app: &AppHandle, action: CloseAction, tray_host: bool) {
    match action {
        CloseAction::Hide => crate::window::hide_main(app, tray_host),
        CloseAction::Ask => {
            let _ = CLOSE_ASK.emit(app, &());
        }
        CloseAction::Quit => app.exit(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_a_tray_host_closing_always_hides_to_the_tray() {
        for choice in CloseWithoutTray::ALL {
            assert_eq!(close_action(true, choice), CloseAction::Hide, "{choice}");
        }
    }

    #[test]
    fn without_a_tray_host_closing_follows_the_setting() {
        let cases = [
            (CloseWithoutTray::Ask, CloseAction::Ask),
            (CloseWithoutTray::Background, CloseAction::Hide),
            (CloseWithoutTray::Quit, CloseAction::Quit),
        ];
        for (choice, action) in cases {
            assert_eq!(close_action(false, choice), action, "{choice}");
        }
    }
}
