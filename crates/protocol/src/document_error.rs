//! Why a document could not be read, worded for the person or model that asked, and sent as
//! data (`{"code": …, "params": …}`) from the reader's worker process and to the UI.

use serde::{Deserialize, Deserializer, Serialize};
use thiserror::Error;
use ts_rs::TS;

#[derive(Debug, Error, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(tag = "code", content = "params", rename_all = "snake_case")]
pub enum DocumentError {
    #[error("`{0}` is not a document format read_document knows (pdf, docx, pptx, xlsx, xls, ods, csv, txt, md, html)")]
    Unsupported(String),
    #[error("the file is empty (0 bytes)")]
    Empty,
    #[error("the file is {size} bytes, more than the {limit}-byte limit for documents")]
    TooLarge { size: u64, limit: u64 },
    #[error("refused: compressed data inside this {format} file would unpack to {unpacked} bytes or more (limit {limit}); it looks like a decompression bomb")]
    ZipBomb {
        #[serde(deserialize_with = "known_name")]
        format: Name,
        unpacked: u64,
        limit: u64,
    },
    #[error("the file is encrypted (password-protected); Hearth cannot read encrypted documents")]
    Encrypted,
    #[error("no text layer: this looks like a scanned document (OCR is not available)")]
    NoTextLayer,
    #[error("the {format} file is damaged or not what its name says: {reason}")]
    Corrupt {
        #[serde(deserialize_with = "known_name")]
        format: Name,
        reason: String,
    },
    #[error("reading the document took longer than {0} seconds and was stopped")]
    Timeout(u64),
    #[error("reading the document needed more than {limit_mb} MB of memory and was stopped")]
    OutOfMemory { limit_mb: u64 },
    #[error("the document reader crashed on this file ({reason}); nothing else was affected")]
    Crashed { reason: String },
    #[error("the document reader could not be started: {reason}")]
    ReaderUnavailable { reason: String },
    #[error("the document reader failed on this file (internal error: {0})")]
    Panicked(String),
    #[error("it is a {kind}, not a regular file; only regular files are read as documents")]
    NotAFile { kind: String },
    #[error("the file cannot be read: {reason}")]
    Unreadable { reason: String },
    #[error("there is no {kind} `{asked}`: the document has {count} {kind}(s){names}")]
    NoSuchUnit {
        #[serde(deserialize_with = "known_name")]
        kind: Name,
        asked: String,
        count: usize,
        names: String,
    },
}

impl DocumentError {
    /// A file of `format` that failed to parse, with the parser's reason.
    pub fn corrupt(format: &'static str, reason: impl ToString) -> Self {
        DocumentError::Corrupt {
            format,
            reason: reason.to_string(),
        }
    }
}

/// A format name or unit kind. (Named so serde does not borrow it from the input, which a
/// `&'static str` cannot be.)
type Name = &'static str;

/// The format names and unit kinds the [`Name`] fields hold, for reading them back.
const NAMES: [&str; 14] = [
    "pdf", "docx", "pptx", "xlsx", "xls", "ods", "csv", "txt", "md", "html", "page", "slide",
    "sheet", "document",
];

/// A format name or unit kind as its `&'static str`; a name this build does not know (none
/// should come) reads as `document`.
fn known_name<'de, D: Deserializer<'de>>(deserializer: D) -> Result<&'static str, D::Error> {
    let name = String::deserialize(deserializer)?;
    Ok(NAMES
        .iter()
        .find(|known| **known == name)
        .copied()
        .unwrap_or("document"))
}
