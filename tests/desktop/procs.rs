//! Processes under /proc: the tree below a pid, whether a pid still runs, and stopping the
//! processes the suite started (by id only).

use std::path::Path;
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;

/// `(pid, ppid)` of a process, from /proc/<pid>/stat; None once it is gone.
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may contain spaces: fields start after the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?;
    if state == "Z" || state == "X" {
        return None;
    }
    fields.next()?.parse().ok()
}

/// Whether `pid` is running (a zombie counts as gone).
pub fn alive(pid: u32) -> bool {
    parent_of(pid).is_some()
}

/// Every running process below `root` (children, grandchildren, ...).
pub fn descendants(root: u32) -> Vec<u32> {
    let mut pairs = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            if let Some(ppid) = parent_of(pid) {
                pairs.push((pid, ppid));
            }
        }
    }
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(
            pairs
                .iter()
                .filter(|(_, pp)| *pp == parent)
                .map(|(p, _)| *p),
        );
        i += 1;
    }
    found.remove(0);
    found
}

/// The process below `root` running `exe`, waiting up to `timeout` for it to appear.
pub fn find_below(root: u32, exe: &Path, timeout: Duration) -> Option<u32> {
    let exe = exe.canonicalize().ok()?;
    let deadline = Instant::now() + timeout;
    loop {
        let hit = descendants(root)
            .into_iter()
            .find(|pid| std::fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|p| p == exe));
        if hit.is_some() || Instant::now() >= deadline {
            return hit;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The processes below `root` whose command name (`/proc/<pid>/comm`, at most 15 characters)
/// starts with `name`.
pub fn named_below(root: u32, name: &str) -> Vec<u32> {
    let comm = |pid: u32| std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
    let wanted = &name[..name.len().min(15)];
    descendants(root)
        .into_iter()
        .filter(|pid| comm(*pid).trim_end().starts_with(wanted))
        .collect()
}

/// Waits until `pid` has exited; false on timeout.
pub fn wait_exit(pid: u32, timeout: Duration) -> bool {
    let deadline = Instant::now() + timeout;
    while alive(pid) {
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    true
}

/// SIGKILLs the process group `pgid` (one the suite created) and `pid`.
pub fn kill_group_and(pgid: u32, pid: Option<u32>) {
    let _ = killpg(Pid::from_raw(pgid as i32), Signal::SIGKILL);
    if let Some(pid) = pid.filter(|p| alive(*p)) {
        let _ = kill(Pid::from_raw(pid as i32), Signal::SIGKILL);
    }
}
