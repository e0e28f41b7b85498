//! `list_dir`: a folder's entries with kind, size and modified time, folders first
//! then by name, at most 1,000.

use super::blocking;
use super::sandbox::{PathArg, Sandbox};
use crate::error::ToolError;
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use cap_std::fs::FileType;
use chrono::{DateTime, SecondsFormat, Utc};
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::Path;

/// The most entries one listing returns.
pub const LIST_MAX_ENTRIES: usize = 1000;

/// The `list_dir` tool.
pub struct ListDir;

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListDirArgs {
    /// The folder, relative to the workspace ("." is the workspace itself).
    #[schemars(length(min = 1, max = 4096))]
    pub path: String,
}

#[async_trait]
impl Tool for ListDir {
    type Args = ListDirArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::LIST_DIR
    }

    fn description(&self) -> &str {
        "List a folder of the workspace (\".\" for the workspace itself): entries {name, kind \
         file|dir|symlink|other, size in bytes, modified (RFC 3339)}, folders first then by \
         name, at most 1,000."
    }

    async fn run(&self, ctx: &ToolContext, args: ListDirArgs) -> Result<Value, ToolError> {
        let workspace = ctx.workspace.clone();
        blocking(move || list(&workspace, &args.path)).await
    }
}

fn kind(file_type: FileType) -> &'static str {
    if file_type.is_dir() {
        "dir"
    } else if file_type.is_file() {
        "file"
    } else if file_type.is_symlink() {
        "symlink"
    } else {
        "other"
    }
}

fn list(workspace: &Path, path: &str) -> Result<Value, ToolError> {
    let sandbox = Sandbox::workspace(workspace)?;
    let arg = PathArg::new("path", path);
    let dir = sandbox.locate(arg)?.open_dir()?;
    let read_error = |e: std::io::Error| super::sandbox::io_error(arg, "list", &e);
    let mut names = Vec::new();
    for entry in dir.entries().map_err(read_error)? {
        let entry = entry.map_err(read_error)?;
        let file_type = entry.file_type().map_err(read_error)?;
        names.push((entry.file_name(), file_type));
    }
    let total = names.len();
    names.sort_by(|(a, ta), (b, tb)| tb.is_dir().cmp(&ta.is_dir()).then_with(|| a.cmp(b)));
    let entries: Vec<Value> = names
        .into_iter()
        .take(LIST_MAX_ENTRIES)
        .map(|(name, file_type)| {
            // Metadata of the entry itself (a link is not followed); it may vanish meanwhile.
            let meta = dir.symlink_metadata(&name).ok();
            let modified = meta.as_ref().and_then(|m| m.modified().ok()).map(|t| {
                DateTime::<Utc>::from(t.into_std()).to_rfc3339_opts(SecondsFormat::Secs, true)
            });
            json!({
                "name": name.to_string_lossy(),
                "kind": kind(file_type),
                "size": meta.as_ref().map_or(0, |m| m.len()),
                "modified": modified,
            })
        })
        .collect();
    let mut out = json!({
        "path": path,
        "entries": entries,
        "total": total,
        "truncated": total > LIST_MAX_ENTRIES,
    });
    if total > LIST_MAX_ENTRIES {
        out["note"] = json!(format!(
            "the folder has {total} entries; the first {LIST_MAX_ENTRIES} are shown (folders \
             first, then by name): list a subfolder or use search_files to narrow down"
        ));
    }
    Ok(out)
}
