//! A real StatusNotifier watcher on the session bus (`status-notifier-watcher`, Debian package
//! haskell-status-notifier-item-utils): what a desktop that shows tray icons runs. Tests that
//! close the window to the tray run with one; without it the bus looks like stock GNOME's.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::bus;

/// The name a tray icon host owns.
pub const WATCHER: &str = "org.kde.StatusNotifierWatcher";

/// The watcher program.
pub const PROGRAM: &str = "status-notifier-watcher";

/// A running watcher; dropping it stops it and waits until the name is released.
pub struct TrayHost {
    child: Child,
}

impl TrayHost {
    /// Starts the watcher and waits until it owns [`WATCHER`].
    pub fn start() -> TrayHost {
        assert!(
            !bus::has_owner(WATCHER),
            "another {WATCHER} already runs on this bus"
        );
        let child = Command::new(PROGRAM)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {PROGRAM}: {e}"));
        let host = TrayHost { child };
        let deadline = Instant::now() + Duration::from_secs(10);
        while !bus::has_owner(WATCHER) {
            assert!(Instant::now() < deadline, "{PROGRAM} did not own {WATCHER}");
            std::thread::sleep(Duration::from_millis(50));
        }
        host
    }
}

impl Drop for TrayHost {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        bus::wait_released(WATCHER, Duration::from_secs(10));
    }
}
