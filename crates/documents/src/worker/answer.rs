//! What the worker's output and end say: its answer after the marker, or why it died (out of
//! memory, out of CPU time, a stack overflow, a signal) as a typed error.

use super::MARKER;
use crate::render::Document;
use crate::run::Limits;
use crate::DocumentError;
use std::process::ExitStatus;

pub(super) fn outcome(
    stdout: &[u8],
    status: ExitStatus,
    stderr: &str,
    limits: &Limits,
) -> Result<Document, DocumentError> {
    if let Some(at) = stdout.windows(MARKER.len()).position(|w| w == MARKER) {
        if let Ok(answer) = serde_json::from_slice(&stdout[at + MARKER.len()..]) {
            return answer;
        }
    }
    if !stderr.trim().is_empty() {
        tracing::debug!(%status, stderr = stderr.trim(), "the document worker died");
    }
    if stderr.contains("memory allocation of") {
        return Err(DocumentError::OutOfMemory {
            limit_mb: limits.max_memory_bytes / (1024 * 1024),
        });
    }
    if stderr.contains("has overflowed its stack") {
        return Err(crashed(
            "it is nested too deeply: the reader ran out of stack",
        ));
    }
    match signal(status) {
        Some(signal) if signal == cpu_limit_signal() => {
            Err(DocumentError::Timeout(limits.timeout.as_secs().max(1)))
        }
        Some(signal) => Err(crashed(format!("killed by signal {signal}"))),
        None if status.success() => Err(DocumentError::ReaderUnavailable {
            reason: "the program ended without answering (it does not run the document worker)"
                .into(),
        }),
        None => Err(crashed(format!("it exited with {status}"))),
    }
}

fn crashed(reason: impl ToString) -> DocumentError {
    DocumentError::Crashed {
        reason: reason.to_string(),
    }
}

#[cfg(unix)]
fn signal(status: ExitStatus) -> Option<i32> {
    std::os::unix::process::ExitStatusExt::signal(&status)
}

#[cfg(not(unix))]
fn signal(_status: ExitStatus) -> Option<i32> {
    None
}

#[cfg(unix)]
fn cpu_limit_signal() -> i32 {
    libc::SIGXCPU
}

#[cfg(not(unix))]
fn cpu_limit_signal() -> i32 {
    -1
}
