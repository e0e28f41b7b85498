//! When a part of the window fails (it threw while rendering, or its code would not load), its
//! failed card logs the error here and can open the data folder (config.toml, `logs/`) in the
//! file manager.

use hearth_ipc_macros::command;
use hearth_protocol::AppError;
use tauri::State;

use crate::state::AppState;

/// Writes the part of the window that failed (`what`, as the user reads it) and its error, with
/// where it was thrown, to Hearth's log.
#[command]
pub fn log_ui_error(what: String, error: String) {
    tracing::error!(target: "hearth::ui", what, error, "a part of the window failed");
}

/// Shows the data dir in the file manager.
#[command]
pub fn open_data_folder(state: State<'_, AppState>) -> Result<(), AppError> {
    crate::startup_problem::open_with_os(state.dir.root())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::io::Write;
    use std::sync::{Arc, Mutex};

    /// A log writer that keeps what it is given.
    #[derive(Clone, Default)]
    struct Kept(Arc<Mutex<Vec<u8>>>);

    impl Write for Kept {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_part_is_logged_as_an_error_with_what_failed() {
        let kept = Kept::default();
        let writer = kept.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            super::log_ui_error(
                "Media".into(),
                "TypeError: Cannot read properties of null\n    at render".into(),
            );
        });
        let line = String::from_utf8(kept.0.lock().unwrap().clone()).unwrap();
        assert!(line.contains("ERROR hearth::ui"), "{line}");
        assert!(line.contains("a part of the window failed"), "{line}");
        assert!(line.contains("what=\"Media\""), "{line}");
        assert!(
            line.contains("TypeError: Cannot read properties of null"),
            "{line}"
        );
    }
}
