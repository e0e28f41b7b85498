//! The command that starts a program in a [`Sandbox`]: the program itself on Linux (the sandbox
//! is applied by [`crate::spawn`]), `sandbox-exec` with the sandbox's Seatbelt profile on macOS.
//! Callers add the arguments, environment, folder and streams as for any command.

use crate::Sandbox;
use std::ffi::OsStr;

impl Sandbox {
    /// A std command starting `program` in this sandbox (start it with [`crate::spawn_std`]).
    pub fn command(&self, program: impl AsRef<OsStr>) -> std::process::Command {
        #[cfg(target_os = "macos")]
        if self.mode != crate::Mode::Off {
            return crate::macos::wrapped(self, program.as_ref());
        }
        std::process::Command::new(program)
    }

    /// A tokio command starting `program` in this sandbox (start it with [`crate::spawn`]).
    pub fn tokio_command(&self, program: impl AsRef<OsStr>) -> tokio::process::Command {
        tokio::process::Command::from(self.command(program))
    }
}
