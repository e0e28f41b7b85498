//! The ledger of the children a Hearth process started: one file per running Hearth process
//! (`<pid>-<start>`) listing `<pid> <start>` of each child, so that whatever outlives its owner
//! (killed with SIGKILL, or its watcher gone too) is ended by the watcher or at the next start.

use crate::procfs::{self, Proc};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a sweep keeps killing what it finds (processes forking while they are killed).
const SWEEP_FOR: Duration = Duration::from_secs(2);

/// The ledger of this process, open for appending.
#[derive(Debug)]
pub(crate) struct Ledger {
    path: PathBuf,
    file: File,
}

impl Ledger {
    /// Creates the ledger of `owner` in `dir`.
    pub(crate) fn create(dir: &Path, owner: Proc) -> io::Result<Ledger> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join(format!("{}-{}", owner.pid, owner.start));
        let file = OpenOptions::new()
            .create(true)
            .truncate(true)
            .write(true)
            .open(&path)?;
        Ok(Ledger { path, file })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Records `child` (one `write` of one line: appends from several threads do not mix).
    pub(crate) fn record(&mut self, child: Proc) {
        let line = format!("{} {}\n", child.pid, child.start);
        if let Err(error) = self.file.write_all(line.as_bytes()) {
            tracing::warn!(%error, "a child process could not be recorded");
        }
    }
}

/// The children listed in the ledger at `path`.
fn entries(path: &Path) -> Vec<(i32, u64)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let (pid, start) = line.split_once(' ')?;
            Some((pid.parse().ok()?, start.parse().ok()?))
        })
        .collect()
}

/// Kills every listed child that is still the same process, with its group and descendants,
/// then removes the ledger.
pub(crate) fn sweep(path: &Path) {
    let listed = entries(path);
    let deadline = Instant::now() + SWEEP_FOR;
    // Nothing listed, nothing to end: the process table is not read.
    while !listed.is_empty() {
        let table = procfs::snapshot();
        let roots: Vec<i32> = listed
            .iter()
            .filter(|(pid, start)| {
                table
                    .iter()
                    .any(|proc| proc.pid == *pid && proc.start == *start)
            })
            .map(|(pid, _)| *pid)
            .collect();
        // Only the groups of the children themselves: each was spawned as its group's leader.
        let victims = crate::procfs::covered(&table, &roots);
        if victims.is_empty() || Instant::now() > deadline {
            break;
        }
        crate::unix::kill_all(&victims);
        std::thread::sleep(Duration::from_millis(5));
    }
    if let Err(error) = std::fs::remove_file(path) {
        if error.kind() != io::ErrorKind::NotFound {
            tracing::warn!(%error, path = %path.display(), "a ledger could not be removed");
        }
    }
}

/// Sweeps the ledgers in `dir` whose owner is no longer running (killed before it or its
/// watcher could end its children).
pub(crate) fn sweep_abandoned(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some((pid, start)) = name.to_str().and_then(|name| name.split_once('-')) else {
            continue;
        };
        let (Ok(pid), Ok(start)) = (pid.parse::<i32>(), start.parse::<u64>()) else {
            continue;
        };
        let running = procfs::process(pid).is_some_and(|owner| owner.start == start);
        if !running {
            tracing::info!(owner = pid, "ending what an earlier run left running");
            sweep(&entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    fn start_of(pid: u32) -> u64 {
        procfs::process(i32::try_from(pid).unwrap()).unwrap().start
    }

    #[test]
    fn a_ledger_whose_owner_is_gone_is_swept_and_a_live_owners_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        // A child in its own group with a grandchild, as a killed Hearth would have left them.
        let mut child = Command::new("bash")
            .args(["-c", "sleep 3600 & exec sleep 3600"])
            .process_group(0)
            .spawn()
            .unwrap();
        let pid = i32::try_from(child.id()).unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        let grandchild = loop {
            let found = procfs::snapshot().into_iter().find(|p| p.ppid == pid);
            if let Some(found) = found {
                break found;
            }
            assert!(Instant::now() < deadline, "the grandchild did not start");
            std::thread::yield_now();
        };
        // An owner that is gone: a process that has exited.
        let mut gone = Command::new("true").spawn().unwrap();
        let gone_pid = gone.id();
        gone.wait().unwrap();
        let abandoned = dir.path().join(format!("{gone_pid}-1"));
        std::fs::write(&abandoned, format!("{pid} {}\n", start_of(child.id()))).unwrap();
        // This process is alive: its ledger (listing the same child) stays.
        let me = procfs::process(i32::try_from(std::process::id()).unwrap()).unwrap();
        let kept = dir.path().join(format!("{}-{}", me.pid, me.start));
        std::fs::write(&kept, "").unwrap();

        sweep_abandoned(dir.path());

        assert!(!abandoned.exists(), "the swept ledger is removed");
        assert!(kept.exists(), "a running owner's ledger is kept");
        // The child is our own: reap it; the grandchild went to init (or a subreaper).
        assert!(child.wait().unwrap().code().is_none(), "killed by a signal");
        let deadline = Instant::now() + Duration::from_secs(10);
        while procfs::process(grandchild.pid).is_some_and(|p| p.start == grandchild.start) {
            assert!(
                Instant::now() < deadline,
                "the grandchild survived the sweep"
            );
            std::thread::yield_now();
        }
    }
}
