//! `read_document`: the text of a PDF, Office, spreadsheet, CSV, text, Markdown or HTML file in
//! the workspace, a page, slide or sheet at a time or whole, through the document readers.

use super::sandbox::{PathArg, Sandbox};
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_documents::{read_limited, read_unit, DocumentError, Limits, DEFAULT_MAX_CHARS};
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::Path;

/// The largest `max_chars`.
pub const DOCUMENT_MAX_CHARS: usize = 500_000;

/// The `read_document` tool.
pub struct ReadDocument;

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadDocumentArgs {
    /// The document, relative to the workspace (an absolute path must be inside it).
    #[schemars(length(min = 1, max = 4096))]
    pub path: String,
    /// Most characters of text to return (default 40000, at most 500000).
    #[schemars(range(min = 1, max = 500000))]
    pub max_chars: Option<usize>,
    /// Which page (pdf), slide (pptx) or sheet (xlsx, xls, ods) to read: its number from 1, a
    /// range such as "2-4", or a sheet name / slide title. Default: all.
    pub unit: Option<UnitArg>,
}

/// A unit by number or by name.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum UnitArg {
    Number(u64),
    Name(String),
}

impl UnitArg {
    fn text(&self) -> String {
        match self {
            UnitArg::Number(n) => n.to_string(),
            UnitArg::Name(name) => name.clone(),
        }
    }
}

#[async_trait]
impl Tool for ReadDocument {
    type Args = ReadDocumentArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::READ_DOCUMENT
    }

    fn description(&self) -> &str {
        "Read the text of a document in the workspace: pdf (per page), docx, pptx (per slide, \
         with speaker notes), xlsx/xls/ods (per sheet, tab-separated rows), csv, txt, md, html. \
         `unit` picks a page, slide or sheet by number, range (\"2-4\") or name; `max_chars` caps \
         the text (40000 default). Returns {path, format, unit_kind, unit_count, units_returned, \
         content, chars, truncated}; each unit starts with a marker line such as `--- page 2 ---`. \
         A scanned PDF without a text layer and an encrypted file are reported as errors."
    }

    async fn run(&self, ctx: &ToolContext, args: ReadDocumentArgs) -> Result<Value, ToolError> {
        let limits = Limits::default();
        let workspace = ctx.workspace.clone();
        let path = args.path.clone();
        let file_limits = limits.clone();
        let bytes = tokio::task::spawn_blocking(move || load(&workspace, &path, &file_limits))
            .await
            .map_err(|e| ToolError::internal(format!("read_document task failed: {e}")))??;
        let unit = args.unit.as_ref().map(UnitArg::text);
        let document = read_unit(bytes, args.path.clone(), unit.clone(), limits)
            .await
            .map_err(|e| document_error(&args.path, e))?;
        let max_chars = args
            .max_chars
            .unwrap_or(DEFAULT_MAX_CHARS)
            .min(DOCUMENT_MAX_CHARS);
        let extract = document
            .extract(unit.as_deref(), max_chars)
            .map_err(|e| document_error(&args.path, e))?;
        let mut out = json!({
            "path": args.path,
            "format": extract.format,
            "unit_kind": extract.unit_kind,
            "unit_count": extract.unit_count,
            "units_returned": extract.units_returned,
            "content": extract.text,
            "chars": extract.chars,
            "truncated": extract.truncated,
        });
        if !extract.units_without_text.is_empty() {
            out["units_without_text"] = json!(extract.units_without_text);
        }
        if extract.truncated {
            let kind = extract.unit_kind.as_str();
            out["note"] = json!(format!(
                "cut at max_chars={max_chars} inside {kind} {}; pass `unit` to read a {kind} at \
                 a time, or raise max_chars (at most {DOCUMENT_MAX_CHARS})",
                extract.units_returned.last().copied().unwrap_or(1)
            ));
        }
        Ok(out)
    }
}

/// The file's bytes, opened through the workspace sandbox (regular files only), read with the
/// documents' own size check.
fn load(workspace: &Path, path: &str, limits: &Limits) -> Result<Vec<u8>, ToolError> {
    let sandbox = Sandbox::workspace(workspace)?;
    let arg = PathArg::new("path", path);
    let (file, meta) = sandbox.locate(arg)?.open_file()?;
    read_limited(file, meta.len(), limits).map_err(|e| document_error(path, e))
}

/// The document error as the tool error the model reads.
fn document_error(path: &str, error: DocumentError) -> ToolError {
    let arg = PathArg::new("path", path);
    let message = error.to_string();
    match error {
        DocumentError::NoSuchUnit { .. } => ToolError::invalid("unit", message),
        DocumentError::Unsupported(_)
        | DocumentError::Empty
        | DocumentError::Corrupt { .. }
        | DocumentError::Crashed { .. } => arg.invalid(message),
        DocumentError::TooLarge { .. }
        | DocumentError::ZipBomb { .. }
        | DocumentError::OutOfMemory { .. } => arg.error(ErrorKind::TooLarge, message),
        DocumentError::Encrypted | DocumentError::NotAFile { .. } => {
            arg.error(ErrorKind::NotPermitted, message)
        }
        DocumentError::NoTextLayer | DocumentError::Unreadable { .. } => {
            arg.error(ErrorKind::Unavailable, message)
        }
        DocumentError::Timeout(_) => arg.error(ErrorKind::Timeout, message),
        DocumentError::Panicked(_) | DocumentError::ReaderUnavailable { .. } => {
            arg.error(ErrorKind::Internal, message)
        }
    }
}
