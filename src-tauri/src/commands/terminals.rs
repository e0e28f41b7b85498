//! The desktop's terminal view of a `pty` session: its current screen, then its output live over
//! a Channel until the session's terminal closes; and the keys the user types into it.

use hearth_ipc_macros::command;
use hearth_protocol::AppError;
use serde::Serialize;
use tauri::ipc::Channel;
use tauri::State;
use tokio::sync::broadcast::error::RecvError;
use ts_rs::TS;

use crate::state::{AppState, CommandResult};

/// What the terminal view receives.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TerminalEvent {
    /// The screen as it is now (escape codes that redraw it) and its size.
    Screen { rows: u16, cols: u16, data: String },
    /// Output bytes as the program wrote them.
    Output { data: Vec<u8> },
    /// The program ended (or the session was killed); nothing more follows.
    Closed,
}

/// Starts feeding `on_event` with the session `session_id`; false when no such session is open
/// (it ended and was forgotten, or the app restarted since).
#[command]
pub fn watch_terminal(
    state: State<'_, AppState>,
    session_id: String,
    on_event: Channel<TerminalEvent>,
) -> bool {
    let Some(feed) = state.background().terminals().watch(&session_id) else {
        return false;
    };
    let screen = TerminalEvent::Screen {
        rows: feed.rows,
        cols: feed.cols,
        data: feed.screen,
    };
    if on_event.send(screen).is_err() {
        return true;
    }
    let Some(mut live) = feed.live else {
        let _ = on_event.send(TerminalEvent::Closed);
        return true;
    };
    tauri::async_runtime::spawn(async move {
        loop {
            let event = match live.recv().await {
                Ok(chunk) => TerminalEvent::Output {
                    data: chunk.to_vec(),
                },
                // A slow view skips what it missed; the next chunks still draw.
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => TerminalEvent::Closed,
            };
            let closed = matches!(event, TerminalEvent::Closed);
            if on_event.send(event).is_err() || closed {
                break;
            }
        }
    });
    true
}

/// Types `data` into the session `session_id`: the bytes the terminal view sends for the keys
/// pressed (text, `\r` for Enter, DEL for Backspace, ETX for Ctrl-C, escape sequences for the
/// arrows). Returns the bytes written.
#[command]
pub async fn write_terminal(
    state: State<'_, AppState>,
    session_id: String,
    data: String,
) -> CommandResult<usize> {
    state
        .background()
        .terminals()
        .write(&session_id, data)
        .await
        .map_err(|e| AppError::TerminalFailed { message: e.message })
}
