//! The main window: closing it (see [`crate::closing`]) hides it to the tray or the background
//! (the first time, a notification says so, and pending approvals are denied, and its teardown
//! is planned: see [`crate::parking`]); [`reveal`] brings it back, building it again when it
//! was torn down.

use std::sync::atomic::{AtomicBool, Ordering};

use hearth_core::Notice;
use hearth_protocol::Text;
use tauri::{AppHandle, Manager, WebviewWindowBuilder, Window, WindowEvent};

use crate::events::{NEW_CHAT, OPEN_CHAT};
use crate::parking::Parking;
use crate::state::AppState;

pub const MAIN: &str = "main";

/// What the window should do when it is brought back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reveal {
    Show,
    NewChat,
    OpenChat(String),
}

/// Shows, unminimizes and focuses the main window.
pub fn show_main(app: &AppHandle) {
    reveal(app, Reveal::Show);
}

/// Shows the main window (built again if it was torn down) and then does `what` in it.
pub fn reveal(app: &AppHandle, what: Reveal) {
    if let Some(parking) = app.try_state::<Parking>() {
        parking.shown();
    }
    let Some(window) = app.get_webview_window(MAIN) else {
        if let Some(parking) = app.try_state::<Parking>() {
            parking.remember(&what);
        }
        rebuild(app);
        return;
    };
    let _ = window.show();
    let _ = window.unminimize();
    let _ = window.set_focus();
    match what {
        Reveal::Show => {}
        Reveal::NewChat => {
            let _ = NEW_CHAT.emit(app, &());
        }
        Reveal::OpenChat(id) => {
            let _ = OPEN_CHAT.emit(app, &id);
        }
    }
}

/// Set while the main window is being built again: a reveal meanwhile only changes what the
/// window does once built (remembered by `Parking`), instead of building a second one.
static REBUILDING: AtomicBool = AtomicBool::new(false);

/// Clears [`REBUILDING`] however the build ends.
struct RebuildDone;

impl Drop for RebuildDone {
    fn drop(&mut self) {
        REBUILDING.store(false, Ordering::Release);
    }
}

/// Builds the main window again from its configuration, off the event loop's thread; does
/// nothing while a build is already under way.
fn rebuild(app: &AppHandle) {
    if REBUILDING.swap(true, Ordering::AcqRel) {
        return;
    }
    let app = app.clone();
    std::thread::spawn(move || {
        let _done = RebuildDone;
        let config = app.config().app.windows.iter().find(|w| w.label == MAIN);
        let Some(config) = config.cloned() else {
            tracing::error!("no main window in the configuration");
            return;
        };
        match WebviewWindowBuilder::from_config(&app, &config).and_then(|b| b.build()) {
            Ok(window) => {
                let _ = window.set_focus();
                tracing::info!("main window built again");
            }
            Err(error) => tracing::error!(%error, "cannot build the main window again"),
        }
    });
}

/// Handles window events for the whole app.
pub fn on_window_event(window: &Window, event: &WindowEvent) {
    if window.label() != MAIN {
        return;
    }
    if let WindowEvent::CloseRequested { api, .. } = event {
        api.prevent_close();
        crate::closing::requested(window.app_handle());
    }
}

/// Hides the main window with the process left running; the first time, a notification says
/// how to get it back (the tray menu, or with no `tray_host`, launching Hearth again).
pub fn hide_main(app: &AppHandle, tray_host: bool) {
    if let Some(window) = app.get_webview_window(MAIN) {
        let _ = window.hide();
    }
    crate::parking::hidden(app);
    let Some(state) = app.try_state::<AppState>() else {
        return;
    };
    state.approver.deny_all();
    let marker = state.dir.root().join(".tray-notice-shown");
    if marker.exists() {
        return;
    }
    let _ = std::fs::write(&marker, b"1");
    let language = state.settings().language;
    let body = if tray_host {
        Text::StillRunningBody
    } else {
        Text::StillRunningBodyNoTray
    };
    crate::notices::show(
        app,
        state.notifier.clone(),
        Notice {
            title: Text::StillRunningTitle.in_language(language),
            body: body.in_language(language),
            urgent: false,
            sound: false,
        },
        None,
    );
}
