//! Showing OS notifications from the shell without blocking the UI thread. Clicking one (where
//! the OS reports clicks) brings the window back, on the chat the notification is about.

use std::sync::Arc;

use hearth_core::{Notice, Notifier, OnClick};
use tauri::AppHandle;

use crate::window::{reveal, Reveal};

/// Shows `notice` on a blocking thread; failures are logged, never shown as errors to the user.
/// A click shows the main window and, with `session_id`, opens that chat.
pub fn show(
    app: &AppHandle,
    notifier: Arc<dyn Notifier>,
    notice: Notice,
    session_id: Option<String>,
) {
    let on_click = open_chat_on_click(app, session_id.clone());
    tauri::async_runtime::spawn_blocking(move || {
        match notifier.show_clickable(&notice, on_click) {
            Ok(id) => {
                tracing::info!(%id, session = session_id.as_deref().unwrap_or(""), "notification shown")
            }
            Err(error) => tracing::warn!(%error, "notification not shown"),
        }
    });
}

/// What a click on a notification about `session_id` does: show the main window on that chat.
pub fn open_chat_on_click(app: &AppHandle, session_id: Option<String>) -> OnClick {
    let app = app.clone();
    Box::new(move || {
        tracing::info!(
            session = session_id.as_deref().unwrap_or(""),
            "notification clicked"
        );
        reveal(&app, session_id.map_or(Reveal::Show, Reveal::OpenChat));
    })
}
