//! `write_file` (the same in CeeCore) and PicoBot `file_write`: creates parent
//! folders, replaces atomically or appends, within the 10 MiB cap on the encoded bytes.

use super::blocking;
use super::diff::{add_diff, DIFF_MAX_INPUT};
use super::encoding::{encode, utf8, TextEncoding};
use super::sandbox::{PathArg, Sandbox, WriteTarget};
use crate::dialect::DialectArgs;
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::path::Path;

/// The most bytes one write stores.
pub const WRITE_MAX_BYTES: usize = 10 * 1024 * 1024;

/// The `write_file` tool.
pub struct WriteFile;

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WriteFileArgs {
    /// The file, relative to the workspace (an absolute path must be inside the workspace).
    /// Missing parent folders are created.
    #[schemars(length(min = 1, max = 4096))]
    pub path: String,
    /// The text to write (at most 10 MiB once encoded).
    pub content: String,
    /// Encoding to store the text in (default utf-8; utf-16 is written little-endian with a
    /// byte order mark).
    pub encoding: Option<TextEncoding>,
    /// Add to the end of the file instead of replacing it (default false).
    pub append: Option<bool>,
}

#[async_trait]
impl Tool for WriteFile {
    type Args = WriteFileArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::WRITE_FILE
    }

    fn description(&self) -> &str {
        "Write a text file in the workspace, creating missing folders. Replaces the file \
         atomically (readers never see half a file) unless `append` is true. `encoding`: \
         utf-8 (default), gbk, utf-16, latin1. At most 10 MiB. Returns {path, bytes_written, \
         created, diff} (diff: what changed, for utf-8 files up to 1 MiB; cut past 20,000 \
         characters with diff_truncated: true)."
    }

    async fn run(&self, ctx: &ToolContext, args: WriteFileArgs) -> Result<Value, ToolError> {
        let workspace = ctx.workspace.clone();
        blocking(move || write(&workspace, &args)).await
    }
}

fn write(workspace: &Path, args: &WriteFileArgs) -> Result<Value, ToolError> {
    let encoding = args.encoding.unwrap_or_default();
    let append = args.append.unwrap_or(false);
    let sandbox = Sandbox::workspace(workspace)?;
    let target = sandbox
        .locate(PathArg::new("path", &args.path))?
        .for_write(true)?;
    let existing_len = target.existing().map_or(0, |m| m.len());
    let bom = !append || existing_len == 0;
    let bytes = encode(&args.content, encoding, bom)
        .map_err(|message| ToolError::invalid("content", message))?;
    if bytes.len() > WRITE_MAX_BYTES {
        return Err(too_large(bytes.len()));
    }
    let before = text_before(&target, encoding, &args.content);
    if append {
        target.append(&bytes)?;
    } else {
        target.replace(&bytes)?;
    }
    let created = target.existing().is_none();
    let mut result = Map::new();
    result.insert("path".to_string(), json!(args.path));
    result.insert("bytes_written".to_string(), json!(bytes.len()));
    result.insert("created".to_string(), json!(created));
    if let Some(before) = before {
        let after = if append {
            format!("{before}{}", args.content)
        } else {
            args.content.clone()
        };
        add_diff(&mut result, &args.path, created, &before, &after);
    }
    Ok(Value::Object(result))
}

/// The file's text before the write, to diff against: only for utf-8 writes where the old file
/// (if any) is UTF-8 and neither side is over [`DIFF_MAX_INPUT`]; `None` means no diff.
fn text_before(target: &WriteTarget<'_>, encoding: TextEncoding, content: &str) -> Option<String> {
    if encoding != TextEncoding::Utf8 || content.len() > DIFF_MAX_INPUT {
        return None;
    }
    let Some(existing) = target.existing() else {
        return Some(String::new());
    };
    if existing.len() > DIFF_MAX_INPUT as u64 {
        return None;
    }
    let bytes = target.read_existing(DIFF_MAX_INPUT as u64).ok()?;
    utf8(bytes).ok()
}

fn too_large(bytes: usize) -> ToolError {
    ToolError {
        kind: ErrorKind::TooLarge,
        message: format!(
            "`content` is {bytes} bytes once encoded; one write stores at most {WRITE_MAX_BYTES} \
             bytes (10 MiB): write the rest with append"
        ),
        field: Some("content".to_string()),
    }
}

/// PicoBot `file_write` takes the canonical parameters.
impl DialectArgs for WriteFileArgs {
    type Canonical = WriteFileArgs;

    fn into_canonical(self) -> Result<WriteFileArgs, ToolError> {
        Ok(self)
    }
}

pub(crate) const PICOBOT_WRITE_DESCRIPTION: &str =
    "Write a text file (relative paths start at the workspace), creating missing folders; \
     atomic replace unless `append`. At most 10 MiB.";
