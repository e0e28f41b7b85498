//! The window's own state across a teardown in the tray: the UI parks it when asked and takes it
//! back when it starts; and the answer to "keep running without a tray icon?".

use hearth_ipc_macros::command;
use hearth_protocol::{CloseWithoutTray, ParkedWindow};
use tauri::State;

use crate::closing::{act, close_action};
use crate::parking::Parking;

/// The UI hands over its state before the hidden window is torn down.
#[command]
pub fn park_window(parking: State<'_, Parking>, window: ParkedWindow) {
    parking.park(window);
}

/// What the previous window parked, and what was asked for while there was none (empty after a
/// fresh start).
#[command]
pub fn unpark_window(parking: State<'_, Parking>) -> ParkedWindow {
    parking.take()
}

/// Acts on the answer to the close question on a desktop without a tray icon (the UI has saved
/// it in `close_without_tray` first): the window hides, or Hearth quits.
#[command]
pub fn answer_close(app: tauri::AppHandle, choice: CloseWithoutTray) {
    tracing::info!(choice = choice.as_str(), "close without a tray answered");
    act(&app, close_action(false, choice), false);
}
