//! Which reader a file needs, from its extension checked against its first bytes.

use crate::DocumentError;
use serde::{Deserialize, Serialize};

/// The formats `read_document` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Pdf,
    Docx,
    Pptx,
    Xlsx,
    Xls,
    Ods,
    Csv,
    Text,
    Markdown,
    Html,
}

/// What one unit of a format is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    Page,
    Slide,
    Sheet,
    Document,
}

impl UnitKind {
    pub fn as_str(self) -> &'static str {
        match self {
            UnitKind::Page => "page",
            UnitKind::Slide => "slide",
            UnitKind::Sheet => "sheet",
            UnitKind::Document => "document",
        }
    }
}

/// The signature of the OLE compound files that encrypted Office Open XML files are wrapped in.
const OLE: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

impl Format {
    /// The format of a file named `name` starting with `head`.
    pub fn detect(name: &str, head: &[u8]) -> Result<Format, DocumentError> {
        let extension = name
            .rsplit_once('.')
            .map(|(_, ext)| ext.to_ascii_lowercase())
            .unwrap_or_default();
        let format = match extension.as_str() {
            "pdf" => Format::Pdf,
            "docx" => Format::Docx,
            "pptx" => Format::Pptx,
            "xlsx" | "xlsm" => Format::Xlsx,
            "xls" => Format::Xls,
            "ods" => Format::Ods,
            "csv" | "tsv" => Format::Csv,
            "txt" | "text" | "log" => Format::Text,
            "md" | "markdown" => Format::Markdown,
            "html" | "htm" | "xhtml" => Format::Html,
            _ => {
                return Err(DocumentError::Unsupported(extension_or_name(
                    name, &extension,
                )))
            }
        };
        if format.is_zip() && head.starts_with(&OLE) {
            return Err(DocumentError::Encrypted);
        }
        if format.is_zip() && !head.starts_with(b"PK") {
            return Err(DocumentError::corrupt(
                format.as_str(),
                "it is not a zip archive, as a .docx, .pptx, .xlsx or .ods file must be",
            ));
        }
        if format == Format::Pdf && !head.windows(5).take(1024).any(|w| w == b"%PDF-") {
            return Err(DocumentError::corrupt("pdf", "it has no %PDF- header"));
        }
        Ok(format)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Format::Pdf => "pdf",
            Format::Docx => "docx",
            Format::Pptx => "pptx",
            Format::Xlsx => "xlsx",
            Format::Xls => "xls",
            Format::Ods => "ods",
            Format::Csv => "csv",
            Format::Text => "txt",
            Format::Markdown => "md",
            Format::Html => "html",
        }
    }

    /// Office Open XML and OpenDocument files are zip archives.
    pub fn is_zip(self) -> bool {
        matches!(
            self,
            Format::Docx | Format::Pptx | Format::Xlsx | Format::Ods
        )
    }

    pub fn unit_kind(self) -> UnitKind {
        match self {
            Format::Pdf => UnitKind::Page,
            Format::Pptx => UnitKind::Slide,
            Format::Xlsx | Format::Xls | Format::Ods => UnitKind::Sheet,
            _ => UnitKind::Document,
        }
    }
}

fn extension_or_name(name: &str, extension: &str) -> String {
    if extension.is_empty() {
        name.to_string()
    } else {
        format!(".{extension}")
    }
}
