//! The network cut where user namespaces are disabled: a seccomp filter on the spawning thread
//! (inherited by the program and everything it starts) that makes `socket()` fail with EACCES
//! for internet (IPv4, IPv6) and raw packet sockets. Local (Unix) sockets still work, so do
//! programs that talk to a local daemon over one.

use crate::SandboxError;
use nix::libc;
use seccompiler::{
    apply_filter, BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition,
    SeccompFilter, SeccompRule, TargetArch,
};
use std::collections::BTreeMap;

/// The socket families refused.
const REFUSED_FAMILIES: &[i32] = &[libc::AF_INET, libc::AF_INET6, libc::AF_PACKET];

/// Installs the filter on the calling thread.
pub(super) fn refuse_internet_sockets() -> Result<(), SandboxError> {
    let failed = |e: &dyn std::fmt::Display| SandboxError::Unavailable {
        reason: format!("the seccomp network filter could not be installed: {e}"),
    };
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(|e| failed(&e))?;
    let rules = REFUSED_FAMILIES
        .iter()
        .map(|&family| {
            let family = u64::try_from(family).map_err(|e| failed(&e))?;
            SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, family)
                .and_then(|condition| SeccompRule::new(vec![condition]))
                .map_err(|e| failed(&e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let filter = SeccompFilter::new(
        BTreeMap::from([(libc::SYS_socket, rules)]),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EACCES.unsigned_abs()),
        arch,
    )
    .map_err(|e| failed(&e))?;
    let program = BpfProgram::try_from(filter).map_err(|e| failed(&e))?;
    apply_filter(&program).map_err(|e| failed(&e))
}
