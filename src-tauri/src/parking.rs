//! Tearing the hidden window down to save memory. A window left hidden in the tray for
//! [`TEARDOWN_DELAY`] is destroyed, so WebKit's web process (most of the app's memory) exits;
//! before that the UI parks what a user would miss (the open chat and its unsent draft), and the
//! window built again by [`crate::window::reveal`] gets it back, together with what was asked for
//! while there was no window (the tray's "New chat", a clicked notification's chat). Once it is
//! gone, [`crate::idle_memory`] gives back what else it can.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use hearth_protocol::ParkedWindow;
use tauri::{AppHandle, Manager};
use tokio::sync::Notify;

use crate::events::PARK_WINDOW;
use crate::state::AppState;
use crate::window::{Reveal, MAIN};

/// How long the window stays hidden in the tray before it is torn down. Long enough that closing
/// and quickly reopening (or a notification clicked right away) shows the same page instantly;
/// short enough that an app left in the tray is lean well before a minute has passed (the web
/// process is ~175 MB of the ~300 MB the app holds with a window). Rebuilding the window costs
/// about as much as a warm start.
pub const TEARDOWN_DELAY: Duration = Duration::from_secs(15);
/// Overrides [`TEARDOWN_DELAY`] in whole seconds (tests, measurements); `0` never tears down.
pub const TEARDOWN_ENV: &str = "HEARTH_WINDOW_TEARDOWN_SECS";
/// How long the UI gets to answer [`PARK_WINDOW`] before the window goes anyway.
const PARK_PATIENCE: Duration = Duration::from_secs(2);

/// The window's teardown schedule and what it parked (managed state).
pub struct Parking {
    delay: Option<Duration>,
    /// Bumped whenever the window is hidden or shown: a teardown planned before is void.
    epoch: AtomicU64,
    parked: Mutex<ParkedWindow>,
    handed_over: Notify,
}

impl Parking {
    /// The delay from [`TEARDOWN_ENV`] when set (`0`: never), else [`TEARDOWN_DELAY`].
    pub fn from_env() -> Parking {
        let delay = match std::env::var(TEARDOWN_ENV)
            .ok()
            .map(|v| v.trim().parse::<u64>())
        {
            Some(Ok(0)) => None,
            Some(Ok(secs)) => Some(Duration::from_secs(secs)),
            Some(Err(_)) => {
                tracing::warn!("{TEARDOWN_ENV} is not a number of seconds; using the default");
                Some(TEARDOWN_DELAY)
            }
            None => Some(TEARDOWN_DELAY),
        };
        Parking {
            delay,
            epoch: AtomicU64::new(0),
            parked: Mutex::new(ParkedWindow::default()),
            handed_over: Notify::new(),
        }
    }

    /// The window was shown: a planned teardown is off.
    pub fn shown(&self) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
    }

    /// Records what the window should do once it is built again.
    pub fn remember(&self, what: &Reveal) {
        if let Ok(mut parked) = self.parked.lock() {
            match what {
                Reveal::Show => {}
                Reveal::NewChat => parked.new_chat = true,
                Reveal::OpenChat(id) => {
                    if parked.session_id.as_deref() != Some(id) {
                        parked.draft = None;
                    }
                    parked.session_id = Some(id.clone());
                    parked.new_chat = false;
                }
            }
        }
    }

    /// The UI's state, handed over before the teardown.
    pub fn park(&self, window: ParkedWindow) {
        if let Ok(mut parked) = self.parked.lock() {
            *parked = window;
        }
        self.handed_over.notify_one();
    }

    /// What the window had parked (empty when it was never torn down); cleared.
    pub fn take(&self) -> ParkedWindow {
        self.parked
            .lock()
            .map(|mut p| std::mem::take(&mut *p))
            .unwrap_or_default()
    }

    fn current(&self, epoch: u64) -> bool {
        self.epoch.load(Ordering::SeqCst) == epoch
    }
}

/// The window was hidden to the tray: tear it down after the delay unless it is shown again.
pub fn hidden(app: &AppHandle) {
    let Some(parking) = app.try_state::<Parking>() else {
        return;
    };
    let epoch = parking.epoch.fetch_add(1, Ordering::SeqCst) + 1;
    let Some(delay) = parking.delay else {
        return;
    };
    tauri::async_runtime::spawn(teardown_after(app.clone(), epoch, delay));
}

async fn teardown_after(app: AppHandle, epoch: u64, delay: Duration) {
    let parking = app.state::<Parking>();
    tokio::time::sleep(delay).await;
    // A reply still streaming into the window keeps it: wait for the turn to end.
    while app.state::<AppState>().turns().count() > 0 {
        if !parking.current(epoch) {
            return;
        }
        tokio::time::sleep(delay).await;
    }
    if !parking.current(epoch) {
        return;
    }
    let Some(window) = app.get_webview_window(MAIN) else {
        return;
    };
    let _ = PARK_WINDOW.emit(&window, &());
    let _ = tokio::time::timeout(PARK_PATIENCE, parking.handed_over.notified()).await;
    if !parking.current(epoch) || window.is_visible().unwrap_or(true) {
        return;
    }
    match window.destroy() {
        Ok(()) => tracing::info!(
            after_secs = delay.as_secs(),
            "hidden window torn down to free memory"
        ),
        Err(error) => {
            tracing::warn!(%error, "cannot tear the hidden window down");
            return;
        }
    }
    // Only `reveal` builds a window again, and it first voids this epoch.
    crate::idle_memory::release_after_teardown(|| parking.current(epoch)).await;
}
