//! Every document is parsed in a worker process — [`WORKER_PROGRAM`] beside this executable, or
//! else this program itself — started with [`WORKER_ARG`], under memory and CPU-time limits,
//! killed at the time limit. A reader that crashes (a stack overflow, an abort) or runs away
//! costs that one file, never the app.

mod answer;
mod serve;

use crate::render::Document;
use crate::run::{check_size, Limits};
use crate::DocumentError;
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{sync_channel, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Instant;

pub use serve::serve_worker_if_asked;
pub(crate) use serve::STACK_BYTES;

/// The document worker's own executable, installed beside the app and `hearth-cli`: it links
/// only the readers, so it starts in about 2 ms and 4 MB (the app's executable loads WebKit's
/// libraries first).
pub const WORKER_PROGRAM: &str = "hearth-document-worker";

/// The first argument that makes this program a document worker. A test binary is a worker
/// too when it holds [`worker_test_host!`](crate::worker_test_host) (libtest reads the
/// argument as a filter naming that test).
pub const WORKER_ARG: &str = "__hearth_document_worker";

/// What the parent sends first, on one line; the file's bytes follow it.
#[derive(Serialize, Deserialize)]
struct Request {
    name: String,
    /// The unit the caller asked for: a PDF then parses only the pages it names.
    unit: Option<String>,
    limits: Limits,
}

/// Put before the worker's answer (a test binary prints its own lines first).
const MARKER: &[u8] = b"\n--- hearth document worker answer ---\n";

/// The most of the worker's stderr kept to tell why it died.
const STDERR_KEPT: u64 = 16 * 1024;

/// Parses `bytes`, the content of a file named `name`, in a worker process (see the module
/// notes), waiting at most `limits.timeout`.
pub async fn read(bytes: Vec<u8>, name: String, limits: Limits) -> Result<Document, DocumentError> {
    read_unit(bytes, name, None, limits).await
}

/// [`read`] for the `unit` the caller will extract ([`Document::extract`]): a PDF's pages named
/// by a number or range are the only ones parsed (see [`crate::parse_unit`]).
pub async fn read_unit(
    bytes: Vec<u8>,
    name: String,
    unit: Option<String>,
    limits: Limits,
) -> Result<Document, DocumentError> {
    tokio::task::spawn_blocking(move || in_worker(bytes, Request { name, unit, limits }))
        .await
        .unwrap_or_else(|e| Err(DocumentError::Panicked(e.to_string())))
}

/// [`read`] for callers without an async runtime: this thread waits for the worker.
pub fn read_blocking(
    bytes: Vec<u8>,
    name: String,
    limits: Limits,
) -> Result<Document, DocumentError> {
    in_worker(
        bytes,
        Request {
            name,
            unit: None,
            limits,
        },
    )
}

fn in_worker(bytes: Vec<u8>, request: Request) -> Result<Document, DocumentError> {
    let limits = request.limits.clone();
    check_size(&bytes, &limits)?;
    let deadline = Instant::now() + limits.timeout;
    let mut child = spawn()?;
    let (Some(stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        end(&mut child);
        return Err(unavailable("its pipes were not set up"));
    };
    let (send, receive) = sync_channel(1);
    let talk = std::thread::Builder::new()
        .name("document-worker-io".into())
        .spawn(move || {
            send_request(stdin, &request, &bytes);
            let (mut stdout, mut answer) = (stdout, Vec::new());
            let read = stdout.read_to_end(&mut answer).map(|_| answer);
            // The caller may have given up (the time limit): nothing to tell then.
            let _ = send.send(read);
        });
    let errors = keep_stderr(stderr);
    if let Err(e) = talk {
        end(&mut child);
        return Err(unavailable(e));
    }
    let timeout = deadline.saturating_duration_since(Instant::now());
    let answer = match receive.recv_timeout(timeout) {
        Ok(answer) => answer.unwrap_or_default(),
        Err(RecvTimeoutError::Timeout) => {
            end(&mut child);
            return Err(DocumentError::Timeout(limits.timeout.as_secs().max(1)));
        }
        Err(RecvTimeoutError::Disconnected) => Vec::new(),
    };
    // Its stdout is closed: it has ended or is ending.
    let status = child.wait().map_err(unavailable)?;
    let stderr = errors
        .and_then(|thread| thread.join().ok())
        .unwrap_or_default();
    answer::outcome(&answer, status, &stderr, &limits)
}

fn spawn() -> Result<Child, DocumentError> {
    // Without the worker's executable (a test binary holding `worker_test_host!`, a build that
    // did not make it) this program serves, through `serve_worker_if_asked`.
    let installed = hearth_children::helper_beside_this_program(WORKER_PROGRAM);
    let program = match installed.filter(|program| program.is_file()) {
        Some(program) => program,
        None => std::env::current_exe().map_err(unavailable)?,
    };
    Command::new(&program)
        .arg(WORKER_ARG)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| unavailable(format!("{}: {e}", program.display())))
}

/// Writes the request line and the bytes; a worker that died early makes this fail, which its
/// exit status then explains.
fn send_request(mut stdin: impl Write, request: &Request, bytes: &[u8]) {
    let sent = serde_json::to_vec(request)
        .map_err(std::io::Error::other)
        .and_then(|line| {
            stdin.write_all(&line)?;
            stdin.write_all(b"\n")?;
            stdin.write_all(bytes)
        });
    if let Err(error) = sent {
        tracing::debug!(%error, "the document worker stopped reading its input");
    }
}

/// The start of the worker's stderr (the rest is read and dropped so it never blocks).
fn keep_stderr(stderr: impl Read + Send + 'static) -> Option<JoinHandle<String>> {
    std::thread::Builder::new()
        .name("document-worker-stderr".into())
        .spawn(move || {
            let mut stderr = stderr;
            let mut kept = Vec::new();
            let _ = (&mut stderr).take(STDERR_KEPT).read_to_end(&mut kept);
            let _ = std::io::copy(&mut stderr, &mut std::io::sink());
            String::from_utf8_lossy(&kept).into_owned()
        })
        .ok()
}

/// Kills the worker and waits for it, so none outlives its call.
fn end(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

fn unavailable(reason: impl ToString) -> DocumentError {
    DocumentError::ReaderUnavailable {
        reason: reason.to_string(),
    }
}

/// Makes a test binary able to serve as the document worker: a `#[test]` that does nothing
/// in a normal run and serves the request when libtest runs it as [`WORKER_ARG`].
#[macro_export]
macro_rules! worker_test_host {
    () => {
        #[test]
        fn __hearth_document_worker() {
            $crate::serve_worker_if_asked();
        }
    };
}
