//! `edit_file` and PicoBot `file_edit`: exact string replacement in a UTF-8 file,
//! refusing absent or ambiguous matches, written atomically, with a unified diff of the change.

use super::blocking;
use super::diff::add_diff;
use super::encoding::utf8;
use super::sandbox::{PathArg, Sandbox};
use super::write::WRITE_MAX_BYTES;
use crate::dialect::DialectArgs;
use crate::error::ToolError;
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::path::Path;

/// The `edit_file` tool.
pub struct EditFile;

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditFileArgs {
    /// The file to edit, relative to the workspace.
    #[schemars(length(min = 1, max = 4096))]
    pub path: String,
    /// The exact text to replace (whitespace and line breaks included). It must occur once,
    /// unless `replace_all` is true.
    #[schemars(length(min = 1))]
    pub old_string: String,
    /// The text to put in its place.
    pub new_string: String,
    /// Replace every occurrence instead of exactly one (default false).
    pub replace_all: Option<bool>,
}

#[async_trait]
impl Tool for EditFile {
    type Args = EditFileArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::EDIT_FILE
    }

    fn description(&self) -> &str {
        "Replace exact text in a UTF-8 file of the workspace. `old_string` must occur exactly \
         once (include surrounding lines to make it unique) unless `replace_all` is true. \
         Returns {path, replacements, diff} (a unified diff, cut past 20,000 characters with \
         diff_truncated: true)."
    }

    async fn run(&self, ctx: &ToolContext, args: EditFileArgs) -> Result<Value, ToolError> {
        let workspace = ctx.workspace.clone();
        blocking(move || edit(&workspace, &args)).await
    }
}

fn edit(workspace: &Path, args: &EditFileArgs) -> Result<Value, ToolError> {
    if args.old_string == args.new_string {
        return Err(ToolError::invalid(
            "new_string",
            "is the same as old_string: there is nothing to change",
        ));
    }
    let sandbox = Sandbox::workspace(workspace)?;
    let arg = PathArg::new("path", &args.path);
    let target = sandbox.locate(arg)?.for_write(false)?;
    if target.existing().is_none() {
        return Err(super::sandbox::not_found(arg, sandbox.label()));
    }
    let bytes = target.read_existing(WRITE_MAX_BYTES as u64)?;
    let before = utf8(bytes).map_err(|at| {
        arg.invalid(format!(
            "is not UTF-8 text (bad bytes at offset {at}); edit_file edits UTF-8 files only \
             (rewrite other encodings with read_file and write_file)"
        ))
    })?;
    let (old, new) = line_endings_of(&before, &args.old_string, &args.new_string);
    let count = before.matches(old.as_str()).count();
    if count == 0 {
        return Err(ToolError::invalid(
            "old_string",
            format!(
                "was not found in `{}`: it must match the file exactly, whitespace and line \
                 breaks included (read_file shows the current text)",
                args.path
            ),
        ));
    }
    let replace_all = args.replace_all.unwrap_or(false);
    if count > 1 && !replace_all {
        return Err(ToolError::invalid(
            "old_string",
            format!(
                "occurs {count} times in `{}`: include more surrounding text to pick one, or \
                 pass replace_all: true to replace all {count}",
                args.path
            ),
        ));
    }
    let after = before.replace(old.as_str(), &new);
    if after.len() > WRITE_MAX_BYTES {
        return Err(ToolError::new(
            crate::error::ErrorKind::TooLarge,
            format!(
                "the edited file would be {} bytes, over the 10 MiB limit",
                after.len()
            ),
        ));
    }
    target.replace(after.as_bytes())?;
    let mut result = Map::new();
    result.insert("path".to_string(), json!(args.path));
    result.insert("replacements".to_string(), json!(count));
    add_diff(&mut result, &args.path, false, &before, &after);
    Ok(Value::Object(result))
}

/// When the file uses CRLF line breaks and the strings use LF (as models write them), the
/// strings are converted to CRLF so they match and the file keeps its line breaks.
fn line_endings_of(text: &str, old: &str, new: &str) -> (String, String) {
    let crlf_file = text.contains("\r\n");
    if crlf_file && old.contains('\n') && !old.contains('\r') && !text.contains(old) {
        (old.replace('\n', "\r\n"), new.replace('\n', "\r\n"))
    } else {
        (old.to_string(), new.to_string())
    }
}

/// PicoBot `file_edit` takes the canonical parameters.
impl DialectArgs for EditFileArgs {
    type Canonical = EditFileArgs;

    fn into_canonical(self) -> Result<EditFileArgs, ToolError> {
        Ok(self)
    }
}

pub(crate) const PICOBOT_EDIT_DESCRIPTION: &str =
    "Replace exact text in a file: `old_string` must occur once unless `replace_all`. \
     Returns the number of replacements and a unified diff.";
