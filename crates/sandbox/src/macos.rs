//! macOS: a program runs under `/usr/bin/sandbox-exec` with the Seatbelt profile of its sandbox
//! (see [`crate::seatbelt`]); [`crate::spawn`] only checks that the command was built that way.
//! Written for macOS and compiled there by the three-OS workflow; it cannot run on Linux.

use crate::seatbelt::{sandbox_exec_args, seatbelt_profile, SANDBOX_EXEC};
use crate::spawn::{Isolation, Launch};
use crate::{Sandbox, SandboxError};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// `program` under `sandbox-exec` with `sandbox`'s profile; the paths resolved first (Seatbelt
/// compares real paths: `/tmp` is `/private/tmp`).
pub(crate) fn wrapped(sandbox: &Sandbox, program: &OsStr) -> std::process::Command {
    let resolved = Sandbox {
        mode: sandbox.mode,
        writable: sandbox.writable.iter().map(|p| real(p)).collect(),
        denied: sandbox.denied.iter().map(|p| real(p)).collect(),
        network: sandbox.network,
    };
    let mut command = std::process::Command::new(SANDBOX_EXEC);
    command.args(sandbox_exec_args(
        &seatbelt_profile(&resolved),
        program,
        std::iter::empty(),
    ));
    command
}

/// What applies to `command` (which `sandbox` is not off for): Seatbelt when it was built by
/// [`Sandbox::command`]; a program started by a library (a terminal) has no sandbox here.
pub(crate) fn restricted(
    _sandbox: &Sandbox,
    launch: Launch,
    program: &OsStr,
) -> Result<Isolation, SandboxError> {
    if launch == Launch::Opaque {
        return Err(SandboxError::Unavailable {
            reason: "terminals (pty) are not sandboxed on macOS yet".to_string(),
        });
    }
    if program != OsStr::new(SANDBOX_EXEC) {
        return Err(SandboxError::Unavailable {
            reason: "the program was not started through its Seatbelt profile".to_string(),
        });
    }
    if !Path::new(SANDBOX_EXEC).is_file() {
        return Err(SandboxError::Unavailable {
            reason: format!("{SANDBOX_EXEC} is missing"),
        });
    }
    Ok(Isolation {
        kind: "seatbelt",
        reason: None,
    })
}

fn real(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}
