//! `read_file` and its dialect forms: CeeCore `read_file` and PicoBot `file_read`.
//! Reads at most `max_bytes + 1` bytes, decodes them, and returns the requested lines.

use super::blocking;
use super::encoding::{binary_hint, decode, signature, NotText, TextEncoding};
use super::sandbox::{PathArg, Sandbox};
use crate::dialect::DialectArgs;
use crate::error::ToolError;
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::io::Read;
use std::path::Path;

/// The default and the largest `max_bytes`.
pub const READ_DEFAULT_BYTES: u64 = 1024 * 1024;
pub const READ_MAX_BYTES: u64 = 10 * 1024 * 1024;

/// The `read_file` tool.
pub struct ReadFile;

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadFileArgs {
    /// The file, relative to the workspace (an absolute path must be inside the workspace).
    #[schemars(length(min = 1, max = 4096))]
    pub path: String,
    /// First line to return, counting from 1 (default 1).
    #[schemars(range(min = 1))]
    pub offset: Option<u64>,
    /// How many lines to return (default: all that were read).
    #[schemars(range(min = 1))]
    pub limit: Option<u64>,
    /// The file's text encoding (default utf-8). A byte order mark in the file wins.
    pub encoding: Option<TextEncoding>,
    /// Most bytes to read from the start of the file (default 1048576 = 1 MiB, at most
    /// 10485760 = 10 MiB). Lines are counted within these bytes.
    #[schemars(range(min = 1, max = 10485760))]
    pub max_bytes: Option<u64>,
}

#[async_trait]
impl Tool for ReadFile {
    type Args = ReadFileArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::READ_FILE
    }

    fn description(&self) -> &str {
        "Read a text file in the workspace: `offset`/`limit` select lines (1-based), `encoding` \
         is utf-8 (default), gbk, utf-16 or latin1, `max_bytes` caps the bytes read (1 MiB \
         default, 10 MiB max). Returns {path, content, size, encoding, lines, truncated}. \
         Binary files are refused: images go to vision_analyze, pdf/docx/xlsx/pptx to \
         read_document."
    }

    async fn run(&self, ctx: &ToolContext, args: ReadFileArgs) -> Result<Value, ToolError> {
        let workspace = ctx.workspace.clone();
        blocking(move || read(&workspace, &args)).await
    }
}

fn read(workspace: &Path, args: &ReadFileArgs) -> Result<Value, ToolError> {
    let max_bytes = args
        .max_bytes
        .unwrap_or(READ_DEFAULT_BYTES)
        .min(READ_MAX_BYTES);
    let requested = args.encoding.unwrap_or_default();
    let sandbox = Sandbox::workspace(workspace)?;
    let arg = PathArg::new("path", &args.path);
    let (file, meta) = sandbox.locate(arg)?.open_file()?;
    let mut bytes = Vec::new();
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| super::sandbox::io_error(arg, "read", &e))?;
    let cut = bytes.len() as u64 > max_bytes;
    if cut {
        bytes.truncate(max_bytes as usize);
    }
    if signature(&args.path, &bytes).is_some() {
        return Err(arg.invalid(binary_hint(&args.path, &bytes)));
    }
    let decoded = decode(&bytes, requested, !cut).map_err(|reason| match reason {
        NotText::Binary => arg.invalid(binary_hint(&args.path, &bytes)),
        NotText::Malformed(at) => ToolError::invalid(
            "encoding",
            format!(
                "`{}` is not valid {} text (bad bytes at offset {at}); if it is text in \
                 another encoding pass `encoding` (utf-8, gbk, utf-16, latin1), if it is binary \
                 read_file cannot read it",
                args.path,
                requested.as_str()
            ),
        ),
    })?;
    let text = decoded.text;
    let all: Vec<&str> = text.split_inclusive('\n').collect();
    let start = args.offset.unwrap_or(1);
    if start > 1 && start > all.len() as u64 {
        return Err(ToolError::invalid(
            "offset",
            format!(
                "is past the end: `{}` has {} line(s){}",
                args.path,
                all.len(),
                if cut { " within the bytes read" } else { "" }
            ),
        ));
    }
    let first = usize::try_from(start - 1)
        .unwrap_or(usize::MAX)
        .min(all.len());
    let count = args
        .limit
        .map_or(usize::MAX, |l| usize::try_from(l).unwrap_or(usize::MAX));
    let chosen = &all[first..first.saturating_add(count).min(all.len())];
    let more_lines = first + chosen.len() < all.len();
    let mut out = json!({
        "path": args.path,
        "content": chosen.concat(),
        "size": meta.len(),
        "encoding": decoded.encoding.as_str(),
        "lines": chosen.len(),
        "truncated": cut || more_lines,
    });
    if more_lines {
        out["next_offset"] = json!(first + chosen.len() + 1);
    }
    if cut {
        out["note"] = json!(format!(
            "only the first {max_bytes} of {} bytes were read; raise max_bytes (at most {READ_MAX_BYTES})",
            meta.len()
        ));
    }
    Ok(out)
}

/// CeeCore `read_file`: path, encoding, max_bytes → `{path, content, size, encoding}`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CeecoreReadFileArgs {
    /// File path, relative to the skill's working folder.
    #[schemars(length(min = 1, max = 4096))]
    pub path: String,
    /// Text encoding, default "utf-8" (also gbk, utf-16, latin1).
    pub encoding: Option<TextEncoding>,
    /// Most bytes to read, default 1048576 (1 MB), at most 10485760 (10 MB).
    #[schemars(range(min = 1, max = 10485760))]
    pub max_bytes: Option<u64>,
}

impl DialectArgs for CeecoreReadFileArgs {
    type Canonical = ReadFileArgs;

    fn into_canonical(self) -> Result<ReadFileArgs, ToolError> {
        Ok(ReadFileArgs {
            path: self.path,
            offset: None,
            limit: None,
            encoding: self.encoding,
            max_bytes: self.max_bytes,
        })
    }

    fn reshape(result: Value) -> Value {
        json!({
            "path": result["path"],
            "content": result["content"],
            "size": result["size"],
            "encoding": result["encoding"],
        })
    }
}

/// PicoBot `file_read` takes the canonical parameters.
impl DialectArgs for ReadFileArgs {
    type Canonical = ReadFileArgs;

    fn into_canonical(self) -> Result<ReadFileArgs, ToolError> {
        Ok(self)
    }
}

pub(crate) const CEECORE_READ_DESCRIPTION: &str =
    "Read a text file from the skill's working folder. Returns {path, content, size, encoding}. \
     Binary files are not supported; at most 10 MB.";

pub(crate) const PICOBOT_READ_DESCRIPTION: &str =
    "Read a text file (relative paths start at the workspace): optional 1-based line `offset` \
     and `limit`, `encoding` (utf-8, gbk, utf-16, latin1) and `max_bytes` (1 MiB default).";
