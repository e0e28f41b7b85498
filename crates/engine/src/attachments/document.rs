//! A dropped PDF or Office file attached as its extracted text, pages, slides or sheets marked,
//! after a header the desktop's chip reads: format, units included of the total, whether it was
//! cut, whether it has no text layer, and where the original was copied.

use std::path::Path;

use hearth_documents::{load, read_blocking, DocumentError, Limits};
use hearth_protocol::ContentPart;

/// Files attached as their text.
pub const DOCUMENT_EXTENSIONS: &[&str] = &["pdf", "docx", "pptx", "xlsx", "xls", "ods"];
/// The most characters of a document's text attached.
pub const DOCUMENT_ATTACHMENT_CHARS: usize = 100_000;

/// The text part for the document at `source`, whose original was copied to `copied`
/// (relative to the workspace); `None` when it cannot be read (encrypted, damaged), so it is
/// attached as a plain file.
pub(super) fn document_part(source: &Path, name: &str, copied: &str) -> Option<ContentPart> {
    let limits = Limits::default();
    let bytes = match load(source, &limits) {
        Ok(bytes) => bytes,
        Err(error) => {
            tracing::info!(%error, name, "document attached as a file");
            return None;
        }
    };
    let header = |summary: String| {
        format!("Attached document `{name}` ({summary}; original copied to {copied}):\n")
    };
    match read_blocking(bytes, name.to_string(), limits) {
        Ok(document) => {
            let extract = document.extract(None, DOCUMENT_ATTACHMENT_CHARS).ok()?;
            let kind = extract.unit_kind.as_str();
            let cut = if extract.truncated { ", cut" } else { "" };
            let summary = format!(
                "{}, {kind}s {} of {}{cut}",
                extract.format.as_str(),
                extract.units_returned.len(),
                extract.unit_count
            );
            let mut text = header(summary);
            text.push_str(&extract.text);
            if extract.truncated {
                text.push_str(&format!(
                    "\n[cut at {DOCUMENT_ATTACHMENT_CHARS} characters: read_document reads the rest]"
                ));
            }
            Some(ContentPart::text(text))
        }
        Err(DocumentError::NoTextLayer) => {
            let mut text = header("pdf, no text layer".into());
            text.push_str(&format!("[{}]", DocumentError::NoTextLayer));
            Some(ContentPart::text(text))
        }
        Err(error) => {
            tracing::info!(%error, name, "document attached as a file");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::prepare_attachment;
    use hearth_protocol::ContentPart;
    use std::path::PathBuf;

    // Documents are parsed in a worker: this test binary started again.
    hearth_documents::worker_test_host!();

    /// A PDF with text and a scanned one, written by fpdf2 (the fixture venv scripts/setup.sh makes).
    fn fixtures(dir: &std::path::Path) {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let status = std::process::Command::new(root.join("target/doc-fixtures/bin/python"))
            .arg(root.join("crates/documents/tests/fixtures/make.py"))
            .arg(dir)
            .args(["--only", "report.pdf,scanned.pdf"])
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "make.py failed (run scripts/setup.sh)");
    }

    fn text(part: ContentPart) -> String {
        match part {
            ContentPart::Text { text } => text,
            other => panic!("not text: {other:?}"),
        }
    }

    #[test]
    fn a_dropped_pdf_is_attached_as_its_pages_and_copied() {
        let dir = tempfile::tempdir().unwrap();
        fixtures(dir.path());
        let ws = dir.path().join("ws");
        let pdf = text(prepare_attachment(&dir.path().join("report.pdf"), &ws).unwrap());
        assert!(
            pdf.starts_with(
                "Attached document `report.pdf` (pdf, pages 3 of 3; original copied to \
                 attachments/report.pdf):\n--- page 1 ---\nQuarterly report"
            ),
            "{pdf}"
        );
        assert!(pdf.contains("--- page 2 ---\n第二页：季度销售报告，收入增长百分之十二。\n"));
        assert!(ws.join("attachments/report.pdf").is_file());

        let scanned = text(prepare_attachment(&dir.path().join("scanned.pdf"), &ws).unwrap());
        assert_eq!(
            scanned,
            "Attached document `scanned.pdf` (pdf, no text layer; original copied to \
             attachments/scanned.pdf):\n[no text layer: this looks like a scanned document (OCR \
             is not available)]"
        );

        let broken = dir.path().join("broken.docx");
        std::fs::write(&broken, b"not a zip").unwrap();
        let part = prepare_attachment(&broken, &ws).unwrap();
        assert!(
            matches!(&part, ContentPart::File { path, .. } if path == "attachments/broken.docx"),
            "{part:?}"
        );
    }
}
