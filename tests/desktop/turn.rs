//! One desktop test's turn: the suite's lock (the app is single-instance per session bus), the
//! fake notification server and, while the turn lasts, a tray icon host when the test's desktop
//! shows tray icons.

use tokio::sync::{Mutex, MutexGuard};

use super::env::{self, Tools};
use super::notifications::{self, FakeNotifications};
use super::tray_host::TrayHost;

/// The suite's one turn: every desktop test of this binary takes it (see [`take`]).
static TURNS: Mutex<()> = Mutex::const_new(());

/// Held for the test's length; dropping it stops the tray host and lets the next test run.
pub struct Turn {
    _tray: Option<TrayHost>,
    _lock: MutexGuard<'static, ()>,
}

/// Waits for this test's turn (no other desktop test of the binary runs meanwhile), checks the
/// preconditions, starts the fake notification server and, with `tray`, a tray icon host
/// (without: stock GNOME's bus).
pub async fn take(tray: bool) -> (Turn, Tools, &'static FakeNotifications) {
    let lock = TURNS.lock().await;
    let tools = env::require();
    let fake = notifications::fake(&tools);
    let turn = Turn {
        _tray: tray.then(TrayHost::start),
        _lock: lock,
    };
    (turn, tools, fake)
}
