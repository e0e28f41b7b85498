//! Parsing a document: the reader its format needs, the size limits, and (for async callers)
//! a blocking thread with a time limit and panics turned into errors.

use crate::error::DocumentError;
use crate::format::Format;
use crate::render::{Document, Unit};
use crate::text::{decode, tidy};
use crate::{html, office, pdf, sheets};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

/// How much a document may weigh and take.
#[derive(Debug, Clone)]
pub struct Limits {
    /// The largest file read (bytes).
    pub max_file_bytes: u64,
    /// The most an Office archive may unpack to, all entries together (bytes).
    pub max_unpacked_bytes: u64,
    /// The most entries an Office archive may have.
    pub max_entries: usize,
    /// How long parsing may take.
    pub timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 100 * 1024 * 1024,
            max_unpacked_bytes: 256 * 1024 * 1024,
            max_entries: 10_000,
            timeout: Duration::from_secs(30),
        }
    }
}

/// Parses `bytes`, the content of a file named `name`, on this thread.
pub fn parse(bytes: &[u8], name: &str, limits: &Limits) -> Result<Document, DocumentError> {
    if bytes.is_empty() {
        return Err(DocumentError::Empty);
    }
    if bytes.len() as u64 > limits.max_file_bytes {
        return Err(DocumentError::TooLarge {
            size: bytes.len() as u64,
            limit: limits.max_file_bytes,
        });
    }
    let format = Format::detect(name, bytes)?;
    let units = match format {
        Format::Pdf => pdf::pages(bytes)?,
        Format::Docx => office::docx(bytes, limits)?,
        Format::Pptx => office::pptx(bytes, limits)?,
        Format::Xlsx | Format::Xls | Format::Ods => sheets::sheets(bytes, format, limits)?,
        Format::Html => vec![Unit::numbered(1, tidy(&html::text(&decode(bytes))))],
        Format::Csv | Format::Text | Format::Markdown => {
            vec![Unit::numbered(1, decode(bytes).replace("\r\n", "\n"))]
        }
    };
    Ok(Document { format, units })
}

/// [`parse`] on a blocking thread, abandoned after `limits.timeout`, a panic in a reader
/// reported as [`DocumentError::Panicked`]. (An abandoned parse runs on until it ends; its
/// result is dropped.)
pub async fn read(bytes: Vec<u8>, name: String, limits: Limits) -> Result<Document, DocumentError> {
    let timeout = limits.timeout;
    let work = tokio::task::spawn_blocking(move || guarded(&bytes, &name, &limits));
    match tokio::time::timeout(timeout, work).await {
        Ok(Ok(result)) => result,
        Ok(Err(join)) => Err(DocumentError::Panicked(join.to_string())),
        Err(_) => Err(DocumentError::Timeout(timeout.as_secs().max(1))),
    }
}

/// [`read`] for callers without an async runtime: the parse runs on its own thread, this one
/// waits at most `limits.timeout`.
pub fn read_blocking(
    bytes: Vec<u8>,
    name: String,
    limits: Limits,
) -> Result<Document, DocumentError> {
    let timeout = limits.timeout;
    let (send, receive) = std::sync::mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("document-reader".into())
        .spawn(move || {
            // The receiver may have given up (timeout): nothing to tell then.
            let _ = send.send(guarded(&bytes, &name, &limits));
        })
        .map_err(|e| DocumentError::Panicked(format!("no reader thread: {e}")))?;
    match receive.recv_timeout(timeout) {
        Ok(result) => result,
        Err(RecvTimeoutError::Timeout) => Err(DocumentError::Timeout(timeout.as_secs().max(1))),
        Err(RecvTimeoutError::Disconnected) => Err(DocumentError::Panicked(
            "the reader thread ended without a result".into(),
        )),
    }
}

/// [`parse`] with a panic in a reader turned into [`DocumentError::Panicked`].
fn guarded(bytes: &[u8], name: &str, limits: &Limits) -> Result<Document, DocumentError> {
    catch_unwind(AssertUnwindSafe(|| parse(bytes, name, limits)))
        .unwrap_or_else(|panic| Err(DocumentError::Panicked(panic_message(&panic))))
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a reader panicked".into())
}
