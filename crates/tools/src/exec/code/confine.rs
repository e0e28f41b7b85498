//! Starting a child confined by Landlock without `unsafe`: Landlock restricts the calling
//! *thread* and everything it forks afterwards, so a fresh, short-lived thread restricts itself
//! and spawns the child, then ends. Hearth's other threads stay unrestricted. The child may read
//! and execute anywhere but write only inside the folders it is given (and to /dev/null).

use crate::error::ToolError;
use tokio::process::{Child, Command};

/// Which isolation a child got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Isolation {
    /// `landlock` or `none`.
    pub(crate) kind: &'static str,
    /// Why there is no (or only partial) confinement.
    pub(crate) reason: Option<String>,
}

#[cfg(target_os = "linux")]
mod linux {
    use super::Isolation;
    use landlock::{
        path_beneath_rules, Access, AccessFs, LandlockStatus, RestrictionStatus, Ruleset,
        RulesetAttr, RulesetCreatedAttr, RulesetError, RulesetStatus, ABI,
    };
    use std::path::PathBuf;

    /// The newest Landlock ABI this confinement was written and tested for (Linux 6.10): every
    /// write-side right, including truncation and device ioctls, is handled. Older kernels
    /// enforce what they know (best effort).
    const TARGET_ABI: ABI = ABI::V5;

    fn apply(writable: &[PathBuf]) -> Result<RestrictionStatus, RulesetError> {
        let read = AccessFs::from_read(TARGET_ABI) | AccessFs::IoctlDev;
        Ruleset::default()
            .handle_access(AccessFs::from_all(TARGET_ABI))?
            .create()?
            .add_rules(path_beneath_rules(["/"], read))?
            .add_rules(path_beneath_rules(writable, AccessFs::from_all(TARGET_ABI)))?
            .add_rules(path_beneath_rules(
                ["/dev/null"],
                read | AccessFs::WriteFile,
            ))?
            .restrict_self()
    }

    /// Restricts the calling thread so that it (and what it spawns) writes only in `writable`.
    pub(super) fn restrict_this_thread(writable: &[PathBuf]) -> Isolation {
        match apply(writable) {
            Ok(status) => match status.ruleset {
                RulesetStatus::FullyEnforced => Isolation {
                    kind: "landlock",
                    reason: None,
                },
                RulesetStatus::PartiallyEnforced => Isolation {
                    kind: "landlock",
                    reason: Some(
                        "partially enforced: this kernel's Landlock predates some of the \
                         requested rights (file truncation or device ioctl control)"
                            .to_string(),
                    ),
                },
                RulesetStatus::NotEnforced => Isolation {
                    kind: "none",
                    reason: Some(unsupported_reason(status.landlock)),
                },
            },
            Err(e) => Isolation {
                kind: "none",
                reason: Some(format!("Landlock could not be applied: {e}")),
            },
        }
    }

    fn unsupported_reason(status: LandlockStatus) -> String {
        match status {
            LandlockStatus::NotEnabled => "this kernel has Landlock but it is not enabled (add \
                 `landlock` to the `lsm=` boot parameter); the code ran unconfined in the scratch copy"
                .to_string(),
            LandlockStatus::NotImplemented => "this kernel has no Landlock support (Linux 5.13 or \
                 newer built with it is needed); the code ran unconfined in the scratch copy"
                .to_string(),
            LandlockStatus::Available { .. } => {
                "Landlock is available but the ruleset was not enforced; the code ran unconfined \
                 in the scratch copy"
                    .to_string()
            }
        }
    }
}

/// Spawns `command` so that it can write only inside the folders `writable` (Landlock, Linux);
/// where that is impossible it runs unconfined and the returned [`Isolation`] says why.
#[cfg(target_os = "linux")]
pub(crate) async fn spawn_confined(
    mut command: Command,
    writable: Vec<std::path::PathBuf>,
) -> Result<(Child, Isolation), ToolError> {
    let runtime = tokio::runtime::Handle::current();
    let (sender, receiver) = tokio::sync::oneshot::channel();
    // A new thread, never a pooled one: the restriction stays with the thread until it ends.
    std::thread::Builder::new()
        .name("hearth-landlock-spawn".to_string())
        .spawn(move || {
            let _runtime = runtime.enter();
            let isolation = linux::restrict_this_thread(&writable);
            // The caller only stops listening when it was cancelled; the child is then killed
            // on drop.
            let _ =
                sender.send(hearth_children::spawn(&mut command).map(|child| (child, isolation)));
        })
        .map_err(|e| ToolError::internal(format!("could not start the spawning thread: {e}")))?;
    receiver
        .await
        .map_err(|_| ToolError::internal("the spawning thread ended without an answer"))?
        .map_err(|e| ToolError::internal(format!("could not start the interpreter: {e}")))
}

#[cfg(not(target_os = "linux"))]
pub(crate) async fn spawn_confined(
    mut command: Command,
    _writable: Vec<std::path::PathBuf>,
) -> Result<(Child, Isolation), ToolError> {
    let child = hearth_children::spawn(&mut command)
        .map_err(|e| ToolError::internal(format!("could not start the interpreter: {e}")))?;
    let isolation = Isolation {
        kind: "none",
        reason: Some(
            "Landlock exists only on Linux; the code ran unconfined in the scratch copy"
                .to_string(),
        ),
    };
    Ok((child, isolation))
}
