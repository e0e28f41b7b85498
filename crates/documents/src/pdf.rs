//! PDF pages through pdf_oxide: encrypted files without an empty user password are refused,
//! and a file whose pages carry no text is reported as scanned.

use crate::error::DocumentError;
use crate::render::Unit;
use crate::text::tidy;
use pdf_oxide::document::PdfDocument;
use pdf_oxide::error::Error as PdfError;

pub(crate) fn pages(bytes: &[u8]) -> Result<Vec<Unit>, DocumentError> {
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
        // A cut-short file whose pages were rebuilt from fragments also has no text; saying
        // "scanned" there would be wrong.
        if !ends_properly(bytes) {
            return Err(DocumentError::corrupt(
                "pdf",
                "it is cut short (the %%EOF end marker is missing)",
            ));
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

fn pdf_error(error: PdfError) -> DocumentError {
    match error {
        PdfError::EncryptedPdf => DocumentError::Encrypted,
        other => DocumentError::corrupt("pdf", other),
    }
}
