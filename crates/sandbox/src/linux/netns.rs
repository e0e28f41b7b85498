//! The network cut by a namespace, and the sandbox's only `unsafe` code. Just before `exec`,
//! the forked child enters a new user namespace (allowed to unprivileged users on most
//! distributions) together with a new network namespace, whose only interface is a loopback
//! that is down: every connection fails, to the internet and to this computer alike.
//!
//! No user or group is mapped into the new user namespace: writing `/proc/self/uid_map` is a
//! write Landlock (already applied to the spawning thread) refuses. The kernel still checks
//! files against the real user, and files are created with the real owner, but inside, the
//! program sees itself and files of unmapped owners as `nobody` (65534).

use nix::sched::{unshare, CloneFlags};
use std::io;
use std::process::Stdio;
use std::sync::OnceLock;

/// What to do in the child before `exec`: enter new namespaces, or nothing.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Hook(bool);

impl Hook {
    /// Nothing before `exec`.
    pub(crate) fn none() -> Self {
        Hook(false)
    }

    /// New user and network namespaces before `exec`.
    pub(crate) fn namespace() -> Self {
        Hook(true)
    }

    pub(crate) fn install_std(self, command: &mut std::process::Command) {
        if self.0 {
            // SAFETY: the closure runs in the forked child before `exec`, where only
            // async-signal-safe work is sound: it makes one `unshare` system call through nix's
            // thin wrapper and builds an `io::Error` from its errno (no allocation, no lock).
            #[allow(unsafe_code)]
            unsafe {
                std::os::unix::process::CommandExt::pre_exec(command, enter);
            }
        }
    }

    pub(crate) fn install_tokio(self, command: &mut tokio::process::Command) {
        if self.0 {
            // SAFETY: as in `install_std`: a single async-signal-safe system call.
            #[allow(unsafe_code)]
            unsafe {
                command.pre_exec(enter);
            }
        }
    }
}

/// In the forked child: the new namespaces.
fn enter() -> io::Result<()> {
    Ok(unshare(
        CloneFlags::CLONE_NEWUSER | CloneFlags::CLONE_NEWNET,
    )?)
}

/// Whether programs can be started in new user and network namespaces here (tried once, with
/// `/bin/sh -c :`), or why not.
pub(super) fn usable() -> Result<(), &'static str> {
    static USABLE: OnceLock<Result<(), String>> = OnceLock::new();
    USABLE
        .get_or_init(probe)
        .as_ref()
        .map(|_| ())
        .map_err(String::as_str)
}

fn probe() -> Result<(), String> {
    let mut command = std::process::Command::new("/bin/sh");
    command
        .args(["-c", ":"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    Hook::namespace().install_std(&mut command);
    match command.status() {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(format!("a program in new namespaces failed ({status})")),
        Err(e) => Err(format!("user namespaces are unavailable: {e}")),
    }
}
