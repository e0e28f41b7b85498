//! The OS sandbox every program Hearth starts runs in. A [`Sandbox`] value says what a program
//! may do (the folders it may write, the paths it may not even read, whether it reaches the
//! network); [`spawn`], [`spawn_std`] and [`confine`] start programs under it and say in an
//! [`Isolation`] what applied.
//!
//! On Linux the file system is confined with Landlock and the network is cut by a new network
//! namespace (an unprivileged user namespace entered just before `exec`) or, where user
//! namespaces are disabled, by a seccomp filter refusing internet sockets. Where the kernel
//! offers neither, nothing is started ([`SandboxError::Unavailable`]) unless the user chose to
//! run commands outside the sandbox ([`Mode::Off`]): never a silent fallback. Other systems have
//! no sandbox yet and refuse the same way.

#[cfg(target_os = "linux")]
mod linux;
mod policy;
mod spawn;
#[cfg(test)]
mod spawn_sites;
#[cfg(test)]
mod tests;

pub use policy::{Mode, Sandbox, Settings, PROTECTED_IN_HOME};
pub use spawn::{confine, probe, spawn, spawn_std, Isolation};

/// Why a program was not started.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The sandbox cannot be applied on this system and the user has not chosen to run
    /// commands outside it.
    #[error(
        "commands run only inside the sandbox, which is unavailable here: {reason}. To run them \
         unsandboxed anyway, choose `sandbox = \"off\"` in Settings → Security"
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
