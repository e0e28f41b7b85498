//! PDF pages through pdf_oxide: a file nested deeper than the parser can safely recurse, cut
//! short, or encrypted without an empty user password is refused, and a file whose pages carry
//! no text is reported as scanned, unless its content is a decompression bomb.

mod structure;

use crate::render::Unit;
use crate::text::tidy;
use crate::DocumentError;
use flate2::read::ZlibDecoder;
use pdf_oxide::document::PdfDocument;
use pdf_oxide::error::Error as PdfError;
use std::io::Read;
use structure::{scan, Stream, MAX_NESTING};

/// The most a page-content stream may inflate to relative to its compressed size before
/// pdf_oxide refuses to decode it (its own default ratio).
const BOMB_RATIO: u64 = 100;

/// Below this a stream is not called a bomb, whatever its ratio (a page of text is far less).
const BOMB_FLOOR: u64 = 16 * 1024 * 1024;

pub(crate) fn pages(bytes: &[u8]) -> Result<Vec<Unit>, DocumentError> {
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
    let doc = PdfDocument::from_bytes(bytes.to_vec()).map_err(pdf_error)?;
    if doc.is_encrypted() && !doc.authenticate(b"").map_err(pdf_error)? {
        return Err(DocumentError::Encrypted);
    }
    let count = doc.page_count().map_err(pdf_error)?;
    let mut units = Vec::with_capacity(count);
    for index in 0..count {
        let text = doc.extract_text(index).map_err(pdf_error)?;
        units.push(Unit::numbered(index + 1, tidy(&text)));
    }
    if units.is_empty() {
        return Err(DocumentError::corrupt("pdf", "it has no pages"));
    }
    if units.iter().all(|unit| unit.text.trim().is_empty()) {
        // Text that was refused for inflating too far is not a missing text layer.
        if let Some(bomb) = structure.streams.iter().find_map(bomb) {
            return Err(bomb);
        }
        return Err(DocumentError::NoTextLayer);
    }
    Ok(units)
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
