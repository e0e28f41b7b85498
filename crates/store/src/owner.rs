//! Which process streams a message: `pid:start-time` (the start time tells a live owner from an
//! unrelated process that reused its pid), and whether that process still runs.

use std::sync::OnceLock;

use sysinfo::{Pid, ProcessRefreshKind, ProcessesToUpdate, System};

/// This process's owner mark.
pub(crate) fn current() -> &'static str {
    static CURRENT: OnceLock<String> = OnceLock::new();
    CURRENT.get_or_init(|| {
        let pid = std::process::id();
        identity(pid).unwrap_or_else(|| format!("{pid}:0"))
    })
}

/// The owner mark of the running process `pid`, or `None` if no such process runs.
pub(crate) fn identity(pid: u32) -> Option<String> {
    let pid = Pid::from_u32(pid);
    let mut system = System::new();
    system.refresh_processes_specifics(
        ProcessesToUpdate::Some(&[pid]),
        true,
        ProcessRefreshKind::nothing(),
    );
    system
        .process(pid)
        .map(|process| format!("{pid}:{}", process.start_time()))
}

/// Whether the process that wrote `owner` is running and is not this one.
pub(crate) fn is_other_live_process(owner: &str) -> bool {
    if owner == current() {
        return false;
    }
    let Some(pid) = owner.split(':').next().and_then(|p| p.parse::<u32>().ok()) else {
        return false;
    };
    identity(pid).is_some_and(|live| live == owner)
}
