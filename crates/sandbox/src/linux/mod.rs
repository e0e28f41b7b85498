//! The Linux sandbox: Landlock for the file system, then the network cut by a network namespace
//! or a seccomp filter, applied to the spawning thread (see [`crate::spawn`]).

mod landlock;
mod netns;
mod rulesets;
mod seccomp;

pub(crate) use netns::Hook;

use crate::spawn::{Isolation, Launch};
use crate::{Mode, Sandbox, SandboxError};

/// The variable that makes the sandbox act as if the kernel lacked a feature, for tests of the
/// refusal and the fallback: `landlock` (no Landlock), `userns` (user namespaces disabled), or
/// both separated by a comma.
const PRETEND_MISSING: &str = "HEARTH_SANDBOX_UNAVAILABLE";

fn pretends_missing(feature: &str) -> bool {
    std::env::var(PRETEND_MISSING)
        .map(|value| value.split(',').any(|item| item.trim() == feature))
        .unwrap_or(false)
}

/// Restricts the calling thread to `sandbox` (whose mode is not [`Mode::Off`]) and returns what
/// applied with the step to add before `exec`; refuses when Landlock (or, with the network off,
/// both ways of cutting it) is unavailable.
pub(crate) fn restricted(
    sandbox: &Sandbox,
    launch: Launch,
) -> Result<(Isolation, Hook), SandboxError> {
    debug_assert!(sandbox.mode != Mode::Off);
    if pretends_missing("landlock") {
        return Err(SandboxError::Unavailable {
            reason: format!("Landlock is unavailable ({PRETEND_MISSING} says so)"),
        });
    }
    // The network cut is chosen first: the probe of user namespaces spawns a program, which must
    // not run under this thread's restriction.
    let namespace = match (sandbox.network, launch) {
        (true, _) => None,
        (false, Launch::Opaque) => Some(Err("the program is started by a library".to_string())),
        (false, Launch::Command) if pretends_missing("userns") => Some(Err(format!(
            "user namespaces are disabled ({PRETEND_MISSING} says so)"
        ))),
        (false, Launch::Command) => Some(netns::usable().map_err(str::to_string)),
    };
    let partial = landlock::restrict(sandbox)?;
    let (kind, hook, note) = match namespace {
        None => ("landlock", Hook::none(), None),
        Some(Ok(())) => ("landlock+netns", Hook::namespace(), None),
        Some(Err(why)) => {
            seccomp::refuse_internet_sockets()?;
            (
                "landlock+seccomp",
                Hook::none(),
                Some(format!(
                    "no network namespace ({why}): internet sockets refused by seccomp"
                )),
            )
        }
    };
    let reason = match (partial, note) {
        (None, None) => None,
        (Some(one), None) | (None, Some(one)) => Some(one),
        (Some(one), Some(two)) => Some(format!("{one}; {two}")),
    };
    Ok((Isolation { kind, reason }, hook))
}
