//! A dropped PDF or Office file attached as its extracted text, pages, slides or sheets marked,
//! after a header for the model (format, units included of the total, whether it was cut or has
//! no text layer, where the original was copied); the same facts as data for the desktop's chip.

use std::path::Path;

use hearth_documents::{load, read_blocking, DocumentError, Limits};
use hearth_protocol::{AttachedSource, ContentPart};

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
            let source = AttachedSource::Document {
                name: name.to_string(),
                format: extract.format.as_str().to_string(),
                unit_kind: extract.unit_kind.as_str().to_string(),
                included: extract.units_returned.len() as u64,
                count: extract.unit_count as u64,
                cut: extract.truncated,
                no_text: false,
            };
            let cut = if extract.truncated { ", cut" } else { "" };
            let summary = format!(
                "{}, {}s {} of {}{cut}",
                extract.format.as_str(),
                extract.unit_kind.as_str(),
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
            Some(ContentPart::Attached { text, source })
        }
        Err(DocumentError::NoTextLayer) => {
            let mut text = header("pdf, no text layer".into());
            text.push_str(&format!("[{}]", DocumentError::NoTextLayer));
            let source = AttachedSource::Document {
                name: name.to_string(),
                format: "pdf".into(),
                unit_kind: "page".into(),
                included: 0,
                count: 0,
                cut: false,
                no_text: true,
            };
            Some(ContentPart::Attached { text, source })
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
    use hearth_protocol::{AttachedSource, ContentPart};
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

    /// The text the model reads and the source the chip shows.
    fn attached(part: ContentPart) -> (String, AttachedSource) {
        match part {
            ContentPart::Attached { text, source } => (text, source),
            other => panic!("not attached text: {other:?}"),
        }
    }

    #[test]
    fn a_dropped_pdf_is_attached_as_its_pages_and_copied() {
        let dir = tempfile::tempdir().unwrap();
        fixtures(dir.path());
        let ws = dir.path().join("ws");
        let (pdf, source) =
            attached(prepare_attachment(&dir.path().join("report.pdf"), &ws).unwrap());
        assert_eq!(
            source,
            AttachedSource::Document {
                name: "report.pdf".into(),
                format: "pdf".into(),
                unit_kind: "page".into(),
                included: 3,
                count: 3,
                cut: false,
                no_text: false,
            }
        );
        assert!(
            pdf.starts_with(
                "Attached document `report.pdf` (pdf, pages 3 of 3; original copied to \
                 attachments/report.pdf):\n--- page 1 ---\nQuarterly report"
            ),
            "{pdf}"
        );
        assert!(pdf.contains("--- page 2 ---\n第二页：季度销售报告，收入增长百分之十二。\n"));
        assert!(ws.join("attachments/report.pdf").is_file());

        let (scanned, source) =
            attached(prepare_attachment(&dir.path().join("scanned.pdf"), &ws).unwrap());
        assert!(
            matches!(&source, AttachedSource::Document { name, no_text: true, included: 0, .. } if name == "scanned.pdf"),
            "{source:?}"
        );
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
