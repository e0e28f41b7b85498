//! Why a document could not be read, worded for the person or model that asked.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DocumentError {
    #[error("`{0}` is not a document format read_document knows (pdf, docx, pptx, xlsx, xls, ods, csv, txt, md, html)")]
    Unsupported(String),
    #[error("the file is empty (0 bytes)")]
    Empty,
    #[error("the file is {size} bytes, more than the {limit}-byte limit for documents")]
    TooLarge { size: u64, limit: u64 },
    #[error("refused: compressed data inside this {format} file would unpack to {unpacked} bytes or more (limit {limit}); it looks like a decompression bomb")]
    ZipBomb {
        format: &'static str,
        unpacked: u64,
        limit: u64,
    },
    #[error("the file is encrypted (password-protected); Hearth cannot read encrypted documents")]
    Encrypted,
    #[error("no text layer: this looks like a scanned document (OCR is not available)")]
    NoTextLayer,
    #[error("the {format} file is damaged or not what its name says: {reason}")]
    Corrupt {
        format: &'static str,
        reason: String,
    },
    #[error("reading the document took longer than {0} seconds and was abandoned")]
    Timeout(u64),
    #[error("the document reader failed on this file (internal error: {0})")]
    Panicked(String),
    #[error("there is no {kind} `{asked}`: the document has {count} {kind}(s){names}")]
    NoSuchUnit {
        kind: &'static str,
        asked: String,
        count: usize,
        names: String,
    },
}

impl DocumentError {
    pub(crate) fn corrupt(format: &'static str, reason: impl ToString) -> Self {
        DocumentError::Corrupt {
            format,
            reason: reason.to_string(),
        }
    }
}
