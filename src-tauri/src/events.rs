//! Every event the app sends the window, declared once with its name and payload type.
//!
//! Each one is an [`AppEvent`] constant sent with [`AppEvent::emit`], which takes only its own
//! payload type; the contract test writes the same list as `ui/src/lib/bindings/events.ts`
//! (see `crate::contract`), which the UI's `onEvent` and the UI tests' fake backend are typed by.
//! Nothing else in the app imports `tauri::Emitter` (a test checks).

use std::marker::PhantomData;

use hearth_protocol::{ModelDownload, Progress, SubAgentProgress};
use serde::Serialize;
use tauri::{Emitter, Runtime};

/// An event the window listens to, by its name, carrying a `P` (`()` sends `null`).
pub struct AppEvent<P: ?Sized> {
    pub name: &'static str,
    payload: PhantomData<fn(&P)>,
}

impl<P: Serialize + ?Sized> AppEvent<P> {
    const fn new(name: &'static str) -> Self {
        Self {
            name,
            payload: PhantomData,
        }
    }

    /// Sends `payload` to the listeners `to` reaches (an `AppHandle`: every window).
    pub fn emit<R: Runtime>(&self, to: &impl Emitter<R>, payload: &P) -> tauri::Result<()> {
        to.emit(self.name, payload)
    }
}

/// Declares the events: a constant for each, and the list the contract is written from.
macro_rules! app_events {
    ($($(#[doc = $doc:literal])+ $id:ident = $name:literal: $payload:ty;)+) => {
        $($(#[doc = $doc])+ pub const $id: AppEvent<$payload> = AppEvent::new($name);)+

        /// Every event, with its doc comment and payload type (the contract's `events.ts`).
        #[cfg(test)]
        pub fn every_event() -> Vec<crate::contract::Event> {
            vec![$(crate::contract::Event::of::<$payload>($name, &[$($doc),+])),+]
        }
    };
}

app_events! {
    /// The tray menu's "New chat" was chosen (the window is already shown).
    NEW_CHAT = "tray://new-chat": ();
    /// A notification about a chat was clicked: open this session (the window is already shown).
    OPEN_CHAT = "notification://open-chat": str;
    /// The hidden window is about to be torn down: hand its state over with `park_window`.
    PARK_WINDOW = "window://park": ();
    /// The window was closed on a desktop without tray icons while `close_without_tray` is
    /// "ask": ask whether to keep running or quit.
    CLOSE_ASK = "window://close-ask": ();
    /// The model wrote this chat's title after its first reply (the sidebar lists them again).
    SESSION_TITLED = "session://titled": str;
    /// A job run, a channel's message or a background sub-agent added messages to this
    /// session (the open chat reloads).
    SESSION_APPENDED = "session://appended": str;
    /// A sub-agent's progress, also after the turn that started it ended (background children).
    SUBAGENT_PROGRESS = "subagent://progress": SubAgentProgress;
    /// Jobs or their runs changed.
    JOBS_CHANGED = "jobs://changed": ();
    /// The channels were built again and the gateway restarted.
    CHANNELS_CHANGED = "channels://changed": ();
    /// A model download changed (progress, paused, failed, finished).
    MODEL_DOWNLOAD = "models://download": ModelDownload;
    /// The knowledge index's pass moved.
    KNOWLEDGE_PROGRESS = "knowledge://progress": Progress;
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    /// Every event has a name of its own, and no file but this one can send an event by name:
    /// `Emitter`, whose `emit` takes any name and payload, is imported nowhere else.
    #[test]
    fn events_are_sent_only_through_this_list() {
        let events = super::every_event();
        let names: BTreeSet<&str> = events.iter().map(|e| e.name).collect();
        assert_eq!(names.len(), events.len(), "{names:?}");

        let elsewhere: Vec<String> = crate::contract::sources()
            .into_iter()
            .filter(|(path, text)| !path.ends_with("src/events.rs") && text.contains("Emitter"))
            .map(|(path, _)| path.display().to_string())
            .collect();
        assert!(elsewhere.is_empty(), "{elsewhere:#?}");
    }
}
