//! The worker's side: read the request from stdin, limit this process's memory and CPU time,
//! parse on a thread with a large stack (panics caught), write the answer to stdout, exit.

use super::{Request, MARKER, WORKER_ARG};
use crate::render::Document;
use crate::run::{parse_unit, Limits};
use crate::DocumentError;
use std::io::{BufRead, ErrorKind, Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The parse thread's stack: deeply nested files that are still legitimate read through.
pub(crate) const STACK_BYTES: u64 = 64 * 1024 * 1024;

/// The longest request line read (the name and the limits).
const REQUEST_LINE_BYTES: u64 = 64 * 1024;

/// Serves one document and exits when this process was started as a document worker (its
/// first argument is [`WORKER_ARG`]); returns at once otherwise. Every program that reads
/// documents calls it first thing in `main`.
pub fn serve_worker_if_asked() {
    if std::env::args_os()
        .nth(1)
        .is_some_and(|arg| arg == WORKER_ARG)
    {
        let answer = serve();
        let mut stdout = std::io::stdout().lock();
        let written = stdout
            .write_all(MARKER)
            .and_then(|()| serde_json::to_writer(&mut stdout, &answer).map_err(Into::into))
            .and_then(|()| stdout.flush());
        std::process::exit(i32::from(written.is_err()));
    }
}

fn serve() -> Result<Document, DocumentError> {
    let mut line = Vec::new();
    std::io::stdin()
        .lock()
        .take(REQUEST_LINE_BYTES)
        .read_until(b'\n', &mut line)
        .map_err(bad_request)?;
    let Request { name, unit, limits } = serde_json::from_slice(&line).map_err(bad_request)?;
    limit_this_process(&limits);
    // The thread (its stack reserved first) reads the bytes: they count toward the budget.
    std::thread::Builder::new()
        .name("document-parse".into())
        .stack_size(usize::try_from(STACK_BYTES).unwrap_or(usize::MAX))
        .spawn(move || {
            let mut bytes = Vec::new();
            std::io::stdin()
                .lock()
                .take(limits.max_file_bytes + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| match e.kind() {
                    ErrorKind::OutOfMemory => DocumentError::OutOfMemory {
                        limit_mb: limits.max_memory_bytes / (1024 * 1024),
                    },
                    _ => bad_request(e),
                })?;
            guarded(&bytes, &name, unit.as_deref(), &limits)
        })
        .map_err(|e| DocumentError::Panicked(format!("no parse thread: {e}")))?
        .join()
        .unwrap_or_else(|_| Err(DocumentError::Panicked("the parse thread failed".into())))
}

fn bad_request(error: impl ToString) -> DocumentError {
    DocumentError::Panicked(format!("bad request to the worker: {}", error.to_string()))
}

/// [`parse_unit`] with a panic in a reader turned into [`DocumentError::Panicked`].
fn guarded(
    bytes: &[u8],
    name: &str,
    unit: Option<&str>,
    limits: &Limits,
) -> Result<Document, DocumentError> {
    catch_unwind(AssertUnwindSafe(|| parse_unit(bytes, name, unit, limits)))
        .unwrap_or_else(|panic| Err(DocumentError::Panicked(panic_message(&panic))))
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a reader panicked".into())
}

/// Address space: what the program occupies now, the parse thread's stack and the memory
/// budget. CPU time: the time limit and a second (a worker whose parent died ends by itself).
#[cfg(target_os = "linux")]
fn limit_this_process(limits: &Limits) {
    use nix::sys::resource::{setrlimit, Resource};
    let memory = occupied_bytes()
        .saturating_add(STACK_BYTES)
        .saturating_add(limits.max_memory_bytes);
    // Past the soft limit SIGXCPU (told apart as "too slow"), past the hard one SIGKILL.
    let cpu = limits.timeout.as_secs().saturating_add(1);
    for (resource, soft, hard) in [
        (Resource::RLIMIT_AS, memory, memory),
        (Resource::RLIMIT_CPU, cpu, cpu + 1),
    ] {
        if let Err(error) = setrlimit(resource, soft, hard) {
            tracing::warn!(%error, ?resource, "the document worker runs without this limit");
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn limit_this_process(_limits: &Limits) {}

/// This process's address space now (`VmSize` in `/proc/self/status`; 0 where unknown).
#[cfg(target_os = "linux")]
fn occupied_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("VmSize:"))
                .and_then(|size| {
                    size.trim()
                        .trim_end_matches("kB")
                        .trim()
                        .parse::<u64>()
                        .ok()
                })
        })
        .map_or(0, |kb| kb * 1024)
}
