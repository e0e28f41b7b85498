//! A fake `org.freedesktop.Notifications` server on the session bus for the whole suite
//! (python3-gi, `fake_notifications.py`): it records every `Notify` call as a JSON line. It also
//! keeps a real daemon (dunst) from being auto-started on the bus by the app's first notice, and
//! clicks notifications by emitting `ActionInvoked` on request.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};

use serde_json::Value;

use super::env::{Tools, PYTHON};

pub struct FakeNotifications {
    log: PathBuf,
    /// Held so its stdin stays open (the server exits when this process ends); commands go there.
    child: Mutex<Child>,
}

static FAKE: OnceLock<FakeNotifications> = OnceLock::new();

/// The suite's fake server, started on first use.
pub fn fake(tools: &Tools) -> &'static FakeNotifications {
    FAKE.get_or_init(|| {
        std::fs::create_dir_all(&tools.scratch).unwrap();
        let log = tools.scratch.join(format!("notifications-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&log);
        let mut child = Command::new(PYTHON)
            .arg(tools.script("fake_notifications.py"))
            .arg(&log)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        let _ = BufReader::new(child.stdout.take().unwrap()).read_line(&mut line);
        assert_eq!(
            line.trim(),
            "ready",
            "the fake notification server could not own org.freedesktop.Notifications (is another notification daemon running on this bus?)"
        );
        FakeNotifications {
            log,
            child: Mutex::new(child),
        }
    })
}

impl FakeNotifications {
    /// Every Notify call so far: `{app_name, summary, body, actions, hints, timeout, ...}`.
    pub fn records(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }

    /// Has the server emit `ActionInvoked(id, action)` to the connection that sent notification
    /// `id`, as a click on it does (`action` "default": the notification itself).
    pub fn invoke(&self, id: u64, action: &str) {
        let mut child = self.child.lock().unwrap();
        let stdin = child.stdin.as_mut().unwrap();
        writeln!(stdin, "invoke {id} {action}").unwrap();
        stdin.flush().unwrap();
    }
}
