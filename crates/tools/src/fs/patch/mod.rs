//! `patch`: applies a unified diff or SEARCH/REPLACE blocks to one file, all hunks
//! or none, with fuzzy placement above `fuzzy_threshold`; written atomically.

mod apply;
mod parse;

pub(crate) use parse::{is_blocks, parse};

use super::blocking;
use super::diff::add_diff;
use super::encoding::utf8;
use super::sandbox::{PathArg, Sandbox};
use super::write::WRITE_MAX_BYTES;
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::path::Path;

/// The default `fuzzy_threshold`.
pub const DEFAULT_FUZZY_THRESHOLD: f64 = 0.6;

/// The `patch` tool.
pub struct Patch;

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchArgs {
    /// The file to patch, relative to the workspace. A file that does not exist is created
    /// when every hunk only adds lines.
    #[schemars(length(min = 1, max = 4096))]
    pub file_path: String,
    /// A unified diff of this one file (`@@ -a,b +c,d @@` hunks; `---`/`+++` headers
    /// optional), or SEARCH/REPLACE blocks: `<<<<<<< SEARCH`, the exact old lines,
    /// `=======`, the new lines, `>>>>>>> REPLACE`.
    #[schemars(length(min = 1))]
    pub patch: String,
    /// Lowest similarity (0 to 1) at which a hunk whose old lines are not found exactly is
    /// applied where the file is most similar (default 0.6; 1 means exact only).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub fuzzy_threshold: Option<f64>,
}

#[async_trait]
impl Tool for Patch {
    type Args = PatchArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::PATCH
    }

    fn description(&self) -> &str {
        "Apply a unified diff or SEARCH/REPLACE blocks to one UTF-8 file of the workspace. All \
         hunks apply or none do (the file is then unchanged). Hunks whose lines are not found \
         exactly go where the file is most similar, if at least `fuzzy_threshold` (0.6). \
         Returns {path, hunks_applied, fuzzy: [{hunk, line, similarity}], created, diff}."
    }

    async fn run(&self, ctx: &ToolContext, args: PatchArgs) -> Result<Value, ToolError> {
        let workspace = ctx.workspace.clone();
        blocking(move || patch(&workspace, &args)).await
    }
}

fn patch(workspace: &Path, args: &PatchArgs) -> Result<Value, ToolError> {
    let threshold = args.fuzzy_threshold.unwrap_or(DEFAULT_FUZZY_THRESHOLD);
    let parsed = parse::parse(&args.patch).map_err(|m| ToolError::invalid("patch", m))?;
    let sandbox = Sandbox::workspace(workspace)?;
    let arg = PathArg::new("file_path", &args.file_path);
    let located = sandbox.locate(arg)?;
    let created = !located.exists();
    if created && parsed.hunks.iter().any(|h| !h.old.is_empty()) {
        return Err(super::sandbox::not_found(arg, sandbox.label()));
    }
    let target = located.for_write(created)?;
    let before = if created {
        String::new()
    } else {
        let bytes = target.read_existing(WRITE_MAX_BYTES as u64)?;
        utf8(bytes).map_err(|at| {
            arg.invalid(format!(
                "is not UTF-8 text (bad bytes at offset {at}); patch edits UTF-8 files only"
            ))
        })?
    };
    let applied = apply::apply(&before, &parsed, threshold)
        .map_err(|message| ToolError::invalid("patch", format!("{message}; no change was made")))?;
    if applied.text.len() > WRITE_MAX_BYTES {
        return Err(ToolError::new(
            ErrorKind::TooLarge,
            format!(
                "the patched file would be {} bytes, over the 10 MiB limit; no change was made",
                applied.text.len()
            ),
        ));
    }
    target.replace(applied.text.as_bytes())?;
    let fuzzy: Vec<Value> = applied
        .fuzzy
        .iter()
        .map(|f| json!({"hunk": f.hunk, "line": f.line, "similarity": f.similarity}))
        .collect();
    let mut result = Map::new();
    result.insert("path".to_string(), json!(args.file_path));
    result.insert("hunks_applied".to_string(), json!(parsed.hunks.len()));
    result.insert("fuzzy".to_string(), Value::Array(fuzzy));
    result.insert("created".to_string(), json!(created));
    add_diff(
        &mut result,
        &args.file_path,
        created,
        &before,
        &applied.text,
    );
    Ok(Value::Object(result))
}
