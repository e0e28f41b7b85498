//! PDF pages through pdf_oxide: a file nested deeper than the parser can safely recurse, cut
//! short, or encrypted without an empty user password is refused, and a file whose pages carry
//! no text is reported as scanned, unless its content is a decompression bomb.

mod lines;
mod pages;
mod spans;
mod structure;

use crate::format::Format;
use crate::render::Document;
use crate::DocumentError;
use flate2::read::ZlibDecoder;
use pages::texts;
use pdf_oxide::document::PdfDocument;
use pdf_oxide::error::Error as PdfError;
use std::io::Read;
use structure::{scan, Stream, MAX_NESTING};

/// The most a page-content stream may inflate to relative to its compressed size before
/// pdf_oxide refuses to decode it (its own default ratio).
const BOMB_RATIO: u64 = 100;

/// Below this a stream is not called a bomb, whatever its ratio (a page of text is far less).
const BOMB_FLOOR: u64 = 16 * 1024 * 1024;

/// The document's pages, or only those from `first` to `last` (1-based, cut to the pages
/// there are) when `pages` names them: a page's text is read from that page alone, so the
/// other pages are never parsed.
pub(crate) fn read(bytes: &[u8], pages: Option<(usize, usize)>) -> Result<Document, DocumentError> {
    if !ends_properly(bytes) {
        return Err(DocumentError::corrupt(
            "pdf",
            "it is cut short (the %%EOF end marker is missing)",
        ));
    }
    let structure = scan(bytes);
    if structure.nesting > MAX_NESTING {
        return Err(DocumentError::corrupt(
            "pdf",
            format!("its arrays or dictionaries nest more than {MAX_NESTING} levels deep"),
        ));
    }
    let doc = opened(bytes)?;
    if doc.is_encrypted() && !doc.authenticate(b"").map_err(pdf_error)? {
        return Err(DocumentError::Encrypted);
    }
    let count = doc.page_count().map_err(pdf_error)?;
    if count == 0 {
        return Err(DocumentError::corrupt("pdf", "it has no pages"));
    }
    let (first, last) = pages.unwrap_or((1, count));
    let numbers: Vec<usize> = (first.max(1)..=last.min(count)).collect();
    let units = texts(&doc, &numbers)?;
    // Only a document read whole can say it has no text layer: one page without text is just
    // that (the caller is told which).
    if pages.is_none() && units.iter().all(|unit| unit.text.trim().is_empty()) {
        // Text that was refused for inflating too far is not a missing text layer.
        if let Some(bomb) = structure.streams.iter().find_map(bomb) {
            return Err(bomb);
        }
        return Err(DocumentError::NoTextLayer);
    }
    Ok(Document {
        format: Format::Pdf,
        units,
        unit_count: count,
    })
}

fn opened(bytes: &[u8]) -> Result<PdfDocument, DocumentError> {
    PdfDocument::from_bytes(bytes.to_vec()).map_err(pdf_error)
}

/// Whether the file's last KiB holds the `%%EOF` marker every complete PDF ends with.
fn ends_properly(bytes: &[u8]) -> bool {
    let tail = &bytes[bytes.len().saturating_sub(1024)..];
    tail.windows(5).any(|w| w == b"%%EOF")
}

/// A Flate stream (not an image) that inflates past [`BOMB_RATIO`] times its size and
/// [`BOMB_FLOOR`]; inflating stops there.
fn bomb(stream: &Stream<'_>) -> Option<DocumentError> {
    let dictionary = stream.dictionary;
    let mentions = |word: &[u8]| dictionary.windows(word.len()).any(|w| w == word);
    if !mentions(b"/FlateDecode") || mentions(b"/Image") {
        return None;
    }
    let limit = (stream.data.len() as u64 * BOMB_RATIO).max(BOMB_FLOOR);
    let mut inflated = Vec::new();
    let read = ZlibDecoder::new(stream.data)
        .take(limit + 1)
        .read_to_end(&mut inflated);
    // A stream that fails to inflate part-way still counts for what it gave.
    let unpacked = match read {
        Ok(n) => n as u64,
        Err(_) => inflated.len() as u64,
    };
    (unpacked > limit).then_some(DocumentError::ZipBomb {
        format: "pdf",
        unpacked,
        limit,
    })
}

fn pdf_error(error: PdfError) -> DocumentError {
    match error {
        PdfError::EncryptedPdf => DocumentError::Encrypted,
        other => DocumentError::corrupt("pdf", other),
    }
}
