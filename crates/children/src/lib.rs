//! Child processes that end with Hearth. Every program Hearth runs is started through
//! [`spawn`] / [`spawn_std`] (or reported with [`spawned`] when a library starts it): in a
//! process group of its own, recorded in a ledger. A binary that calls [`install`] first thing
//! then gets three guarantees on Linux:
//!
//! - it is a child subreaper, so what its children start and abandon (`setsid`, double forks)
//!   stays its descendant, and [`end_all`] (at exit, on SIGINT, SIGTERM or SIGHUP) kills every
//!   descendant except the programs started with [`spawn_detached`] (a browser opened for the
//!   user);
//! - a watcher process (forked at install, in a session of its own) notices through a pipe when
//!   the binary has ended, however it ended (`kill -9` included), and kills each recorded child
//!   with its process group and descendants;
//! - whatever both missed (the watcher killed too) is ended at the next start, from the ledger
//!   of the run that is gone.
//!
//! Without [`install`] (tests, other platforms) spawning works the same and nothing is
//! tracked.

mod helpers;
#[cfg(target_os = "linux")]
mod ledger;
#[cfg(target_os = "linux")]
mod procfs;
#[cfg(target_os = "linux")]
mod unix;

pub use helpers::helper_beside_this_program;

use std::io;
use std::path::Path;
#[cfg(target_os = "linux")]
use std::sync::{Mutex, OnceLock};

/// What [`install`] set up.
#[cfg(target_os = "linux")]
#[derive(Debug)]
struct Installed {
    ledger: Mutex<ledger::Ledger>,
    /// The watcher process, which [`end_all`] leaves alone.
    watcher: Option<i32>,
    /// The write end of the pipe the watcher reads: open as long as this process lives.
    _alive: std::os::fd::OwnedFd,
    /// Process groups of detached programs, which [`end_all`] leaves alone.
    detached: Mutex<Vec<i32>>,
}

#[cfg(target_os = "linux")]
static INSTALLED: OnceLock<Installed> = OnceLock::new();

/// Makes this process the keeper of its children (see the crate docs), with its ledgers in
/// `run_dir`; first ends what earlier runs that are gone left behind. Call it first thing in
/// `main`, before any other thread starts (the watcher is forked). Does nothing elsewhere than
/// Linux.
pub fn install(run_dir: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        let dir = run_dir.join("children");
        ledger::sweep_abandoned(&dir);
        nix::sys::prctl::set_child_subreaper(true).map_err(io::Error::from)?;
        let me = i32::try_from(std::process::id()).map_err(io::Error::other)?;
        let owner = procfs::process(me).ok_or_else(|| io::Error::other("no /proc entry"))?;
        let ledger = ledger::Ledger::create(&dir, owner)?;
        let (reader, writer) = io::pipe()?;
        let (reader, writer) = (std::os::fd::OwnedFd::from(reader), writer.into());
        let watcher = unix::fork_watcher(reader, &writer, ledger.path());
        let installed = Installed {
            ledger: Mutex::new(ledger),
            watcher,
            _alive: writer,
            detached: Mutex::new(Vec::new()),
        };
        INSTALLED
            .set(installed)
            .map_err(|_| io::Error::other("installed twice"))?;
    }
    #[cfg(not(target_os = "linux"))]
    let _ = run_dir;
    Ok(())
}

/// Records the child `pid` (spawned as the leader of its own process group, or a program
/// whose descendants are its own, like a browser) so that it is ended even if this process is
/// killed.
pub fn spawned(pid: Option<u32>) {
    #[cfg(target_os = "linux")]
    {
        let (Some(installed), Some(pid)) = (INSTALLED.get(), pid) else {
            return;
        };
        let Some(child) = i32::try_from(pid).ok().and_then(procfs::process) else {
            return;
        };
        if let Ok(mut ledger) = installed.ledger.lock() {
            ledger.record(child);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = pid;
}

/// Starts `command` in a process group of its own and records it.
pub fn spawn(command: &mut tokio::process::Command) -> io::Result<tokio::process::Child> {
    #[cfg(unix)]
    command.process_group(0);
    let child = command.spawn()?;
    spawned(child.id());
    Ok(child)
}

/// [`spawn`] for a [`std::process::Command`].
pub fn spawn_std(command: &mut std::process::Command) -> io::Result<std::process::Child> {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    let child = command.spawn()?;
    spawned(Some(child.id()));
    Ok(child)
}

/// Starts a program meant to outlive Hearth (the user's browser or file manager opened for
/// them): in a process group of its own, which [`end_all`] leaves alone.
pub fn spawn_detached(command: &mut tokio::process::Command) -> io::Result<tokio::process::Child> {
    #[cfg(unix)]
    command.process_group(0);
    let child = command.spawn()?;
    #[cfg(target_os = "linux")]
    if let (Some(installed), Some(pid)) = (INSTALLED.get(), child.id()) {
        if let (Ok(mut detached), Ok(pgid)) = (installed.detached.lock(), i32::try_from(pid)) {
            detached.push(pgid);
        }
    }
    Ok(child)
}

/// Kills every descendant of this process (children, what they started, what they abandoned),
/// except the watcher and detached programs. For the end of `main` and signal handlers; does
/// nothing without [`install`].
pub fn end_all() {
    #[cfg(target_os = "linux")]
    {
        use std::time::{Duration, Instant};
        let Some(installed) = INSTALLED.get() else {
            return;
        };
        let spared = installed
            .detached
            .lock()
            .map(|groups| groups.clone())
            .unwrap_or_default();
        let Ok(me) = i32::try_from(std::process::id()) else {
            return;
        };
        // As a subreaper this process inherits whatever its descendants abandon: with no child
        // but the watcher there is no descendant, and the whole process table is not read.
        if procfs::children(me)
            .is_some_and(|children| children.iter().all(|&pid| Some(pid) == installed.watcher))
        {
            return;
        }
        let deadline = Instant::now() + Duration::from_secs(2);
        loop {
            let table: Vec<procfs::Proc> = procfs::snapshot()
                .into_iter()
                .filter(|proc| !spared.contains(&proc.pgid))
                .filter(|proc| Some(proc.pid) != installed.watcher)
                .collect();
            let children: Vec<i32> = table
                .iter()
                .filter(|proc| proc.ppid == me)
                .map(|proc| proc.pid)
                .collect();
            let mut victims = std::collections::BTreeSet::new();
            for child in children {
                victims.extend(procfs::covered(&table, &[child]));
            }
            victims.remove(&me);
            if victims.is_empty() || Instant::now() > deadline {
                break;
            }
            unix::kill_all(&victims);
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
