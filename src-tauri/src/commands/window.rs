//! The window's own state across a teardown in the tray: the UI parks it when asked and takes it
//! back when it starts.

use hearth_protocol::ParkedWindow;
use tauri::State;

use crate::parking::Parking;

/// The UI hands over its state before the hidden window is torn down.
#[tauri::command]
pub fn park_window(parking: State<'_, Parking>, window: ParkedWindow) {
    parking.park(window);
}

/// What the previous window parked, and what was asked for while there was none (empty after a
/// fresh start).
#[tauri::command]
pub fn unpark_window(parking: State<'_, Parking>) -> ParkedWindow {
    parking.take()
}
