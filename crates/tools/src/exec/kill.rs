//! Ending a child together with everything it started: SIGKILL to its whole process group, or
//! (for terminal sessions, whose jobs get process groups of their own) to its whole session.

use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::{getsid, Pid};

/// Sends SIGKILL to every process of group `pgid`. A group that is already gone is not an error.
pub(crate) fn kill_group(pgid: u32) {
    let Ok(raw) = i32::try_from(pgid) else {
        return;
    };
    if raw <= 1 {
        return;
    }
    if let Err(errno) = killpg(Pid::from_raw(raw), Signal::SIGKILL) {
        if errno != nix::errno::Errno::ESRCH {
            tracing::warn!(pgid, %errno, "could not kill a process group");
        }
    }
}

/// Sends SIGKILL to every process of session `sid` (found through /proc on Linux), then to its
/// leader's group on every Unix.
pub(crate) fn kill_session(sid: u32) {
    let Ok(raw) = i32::try_from(sid) else {
        return;
    };
    if raw <= 1 {
        return;
    }
    let session = Pid::from_raw(raw);
    if let Ok(entries) = std::fs::read_dir("/proc") {
        let members = entries
            .filter_map(Result::ok)
            .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
            .map(Pid::from_raw)
            .filter(|pid| getsid(Some(*pid)) == Ok(session));
        for pid in members {
            // A member that exited meanwhile is fine.
            let _ = kill(pid, Signal::SIGKILL);
        }
    }
    kill_group(sid);
}

/// Kills its process group when dropped: on timeout, on cancellation (the registry drops the
/// call's future) and after a normal exit, so that nothing a command started outlives it.
#[derive(Debug)]
pub(crate) struct GroupGuard {
    pgid: Option<u32>,
}

impl GroupGuard {
    /// `pgid` is the child's pid (the child was spawned as its group's leader).
    pub(crate) fn new(pgid: Option<u32>) -> Self {
        Self { pgid }
    }

    pub(crate) fn kill(&self) {
        if let Some(pgid) = self.pgid {
            kill_group(pgid);
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill();
    }
}
