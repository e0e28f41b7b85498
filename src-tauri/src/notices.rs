//! Showing OS notifications from the shell without blocking the UI thread.

use std::sync::Arc;

use hearth_engine::{Notice, Notifier};
use tauri::AppHandle;

/// Shows `notice` on a blocking thread; failures are logged, never shown as errors to the user.
pub fn show(
    _app: &AppHandle,
    notifier: Arc<dyn Notifier>,
    notice: Notice,
    session_id: Option<String>,
) {
    tauri::async_runtime::spawn_blocking(move || match notifier.show(&notice) {
        Ok(id) => {
            tracing::info!(%id, session = session_id.as_deref().unwrap_or(""), "notification shown")
        }
        Err(error) => tracing::warn!(%error, "notification not shown"),
    });
}
