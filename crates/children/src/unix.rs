//! The system calls of this crate, the only `unsafe` code in it: forking the watcher (while the
//! process has one thread), pointing its standard streams at `/dev/null`, ending it with
//! `_exit`, and SIGKILL.

use nix::sys::signal::{kill, Signal};
use nix::unistd::{fork, setsid, ForkResult, Pid};
use std::collections::BTreeSet;
use std::io::Read;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;

/// Sends SIGKILL to each of `pids` (one that is gone already is fine).
pub(crate) fn kill_all(pids: &BTreeSet<i32>) {
    for &pid in pids {
        if pid > 1 {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
}

/// Whether this process has exactly one thread (forking without `exec` is only sound then).
fn single_threaded() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .map(|status| status.lines().any(|line| line == "Threads:\t1"))
        .unwrap_or(false)
}

/// Forks the watcher: a process of its own session that waits until `alive` (the read end of a
/// pipe only this process holds the write end of) reports end of file — this process has
/// ended, however it ended — then sweeps `ledger`. Returns its pid; `None` when this process
/// already runs other threads.
pub(crate) fn fork_watcher(alive: OwnedFd, writer: &OwnedFd, ledger: &Path) -> Option<i32> {
    if !single_threaded() {
        tracing::warn!("the child watcher was not started: threads are already running");
        return None;
    }
    // SAFETY: the process has a single thread (checked above), so the child starts from a
    // consistent state (no lock held by another thread) and may allocate; it never returns
    // into the caller's code: it ends with `_exit`.
    #[allow(unsafe_code)]
    match unsafe { fork() } {
        Ok(ForkResult::Parent { child }) => Some(child.as_raw()),
        Ok(ForkResult::Child) => {
            watch(alive, writer, ledger);
            // SAFETY: `_exit` ends the forked copy without running the parent's exit handlers
            // or flushing its buffers a second time.
            #[allow(unsafe_code)]
            unsafe {
                libc::_exit(0)
            }
        }
        Err(errno) => {
            tracing::warn!(%errno, "the child watcher could not be started");
            None
        }
    }
}

/// The watcher's whole life (in the forked child).
fn watch(alive: OwnedFd, writer: &OwnedFd, ledger: &Path) {
    // Out of the terminal's session: Ctrl-C and a closed terminal reach Hearth, not the watcher.
    let _ = setsid();
    // SAFETY: closing a descriptor this process owns (the copy of the pipe's write end: while
    // it is open the read below would never see end of file).
    #[allow(unsafe_code)]
    unsafe {
        libc::close(writer.as_raw_fd());
    }
    // Its copies of stdin, stdout and stderr must not keep a reader of Hearth's output waiting.
    if let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        for target in 0..=2 {
            // SAFETY: `dup2` onto the standard descriptors, which this process owns.
            #[allow(unsafe_code)]
            unsafe {
                libc::dup2(null.as_raw_fd(), target);
            }
        }
    }
    let mut alive = std::fs::File::from(alive);
    let mut byte = [0u8; 1];
    loop {
        match alive.read(&mut byte) {
            Ok(0) => break,
            Ok(_) => continue,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    crate::ledger::sweep(ledger);
}
