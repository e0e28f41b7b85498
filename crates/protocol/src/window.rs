//! What the desktop window hands over when it is torn down while hidden in the tray, and gets
//! back when it is built again: the chat that was open, its unsent draft, and what the user asked
//! for in the meantime (a tray "New chat", a notification's chat).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The window's state across a teardown (see the app's `parking` module).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ParkedWindow {
    /// The chat on screen (or to open: a clicked notification's chat).
    #[serde(default)]
    pub session_id: Option<String>,
    /// The unsent text in that chat's message box.
    #[serde(default)]
    pub draft: Option<String>,
    /// The tray's "New chat" was chosen while there was no window.
    #[serde(default)]
    pub new_chat: bool,
}
