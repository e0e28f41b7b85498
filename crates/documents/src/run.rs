//! Parsing a document in this process: the reader its format needs and the limits it runs
//! under (callers read through the worker process, [`crate::read`]).

use crate::format::Format;
use crate::render::{numbered, Document, Unit};
use crate::text::{decode, refuse_binary, tidy};
use crate::DocumentError;
use crate::{html, office, pdf, sheets};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How much a document may weigh and take.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Limits {
    /// The largest file read (bytes).
    pub max_file_bytes: u64,
    /// The most an Office archive may unpack to, all entries together (bytes).
    pub max_unpacked_bytes: u64,
    /// The most entries an Office archive may have.
    pub max_entries: usize,
    /// How long parsing may take (wall time; the worker is killed then).
    pub timeout: Duration,
    /// The most memory the worker may take beyond what the program occupies when it starts
    /// (bytes; its address space is limited to that).
    pub max_memory_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 100 * 1024 * 1024,
            max_unpacked_bytes: 256 * 1024 * 1024,
            max_entries: 10_000,
            timeout: Duration::from_secs(30),
            max_memory_bytes: 1024 * 1024 * 1024,
        }
    }
}

/// Refuses an empty file and one past the size limit (before any worker starts).
pub(crate) fn check_size(bytes: &[u8], limits: &Limits) -> Result<(), DocumentError> {
    if bytes.is_empty() {
        return Err(DocumentError::Empty);
    }
    if bytes.len() as u64 > limits.max_file_bytes {
        return Err(DocumentError::TooLarge {
            size: bytes.len() as u64,
            limit: limits.max_file_bytes,
        });
    }
    Ok(())
}

/// Parses `bytes`, the content of a file named `name`, on this thread, with nothing guarding
/// it: the worker process's own entry. Everyone else reads through [`crate::read`].
pub fn parse(bytes: &[u8], name: &str, limits: &Limits) -> Result<Document, DocumentError> {
    parse_unit(bytes, name, None, limits)
}

/// [`parse`] for the `unit` a caller asked for (as [`Document::extract`] takes it): a PDF then
/// reads only the pages a number or range names; every other format, and any other `unit`,
/// reads whole.
pub fn parse_unit(
    bytes: &[u8],
    name: &str,
    unit: Option<&str>,
    limits: &Limits,
) -> Result<Document, DocumentError> {
    check_size(bytes, limits)?;
    let format = Format::detect(name, bytes)?;
    let units = match format {
        Format::Pdf => return pdf::read(bytes, unit.and_then(numbered)),
        Format::Docx => office::docx(bytes, limits)?,
        Format::Pptx => office::pptx(bytes, limits)?,
        Format::Xlsx | Format::Xls | Format::Ods => sheets::sheets(bytes, format, limits)?,
        Format::Html => {
            refuse_binary(bytes, format)?;
            vec![Unit::numbered(1, tidy(&html::text(&decode(bytes))))]
        }
        Format::Csv | Format::Text | Format::Markdown => {
            refuse_binary(bytes, format)?;
            vec![Unit::numbered(1, decode(bytes).replace("\r\n", "\n"))]
        }
    };
    Ok(Document::whole(format, units))
}
