//! The OS sandbox every program Hearth starts runs in. A [`Sandbox`] value says what a program
//! may do (the folders it may write, the paths it may not even read, whether it reaches the
//! network); [`spawn`], [`spawn_std`] and [`confine`] start programs under it and say in an
//! [`Isolation`] what applied.
//!
//! On Linux the file system is confined with Landlock and the network is cut by a new network
//! namespace (an unprivileged user namespace entered just before `exec`) or, where user
//! namespaces are disabled, by a seccomp filter refusing internet sockets. Where the kernel
//! offers neither, nothing is started ([`SandboxError::Unavailable`]) unless the user chose to
//! run commands outside the sandbox ([`Mode::Off`]): never a silent fallback. On macOS a program
//! built with [`Sandbox::command`] runs under `sandbox-exec` with the sandbox's Seatbelt profile
//! ([`seatbelt_profile`]); Windows has no sandbox yet and refuses the same way.

mod command;
#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "macos")]
mod macos;
mod policy;
mod seatbelt;
mod spawn;
#[cfg(test)]
mod spawn_sites;
#[cfg(test)]
mod tests;

pub use policy::{Mode, Sandbox, Settings, PROTECTED_IN_HOME};
pub use seatbelt::{sandbox_exec_args, seatbelt_profile, SANDBOX_EXEC};
pub use spawn::{confine, probe, spawn, spawn_std, Isolation};

/// Why a program was not started.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The sandbox cannot be applied on this system and the user has not chosen to run
    /// commands outside it.
    #[error(
        "commands run only inside the sandbox, which is unavailable here: {reason}. To run them \
         unsandboxed anyway, choose \"Allow, and run this chat's commands outside the sandbox\" \
         on the approval card, or `sandbox = \"off\"` in Settings → Security"
    )]
    Unavailable { reason: String },
    /// The program could not be started.
    #[error("could not start {program}: {source}")]
    Spawn {
        program: String,
        #[source]
        source: std::io::Error,
    },
    /// The thread that confines itself and starts the program could not run.
    #[error("the sandbox could not be set up: {0}")]
    Setup(String),
}
