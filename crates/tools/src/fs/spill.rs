//! `read_spill`: reads tool output saved under `<data_dir>/spill/` (only there,
//! through the same sandbox rooted at the spill folder), by character slice or by pattern.

use super::blocking;
use super::sandbox::{PathArg, Sandbox};
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::io::Read;
use std::path::Path;

/// The default and the largest slice, in characters (twice the largest still fits the model
/// output cap after JSON escaping).
pub const SPILL_DEFAULT_CHARS: u64 = 10_000;
pub const SPILL_MAX_CHARS: u64 = 20_000;
/// The largest spill file read.
const SPILL_MAX_BYTES: u64 = 64 * 1024 * 1024;
/// Matches returned per call in pattern mode, and the context around each.
const MAX_MATCHES: usize = 30;
const CONTEXT_CHARS: usize = 80;
const MATCH_MAX_CHARS: usize = 200;

/// The `read_spill` tool.
pub struct ReadSpill;

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadSpillArgs {
    /// The spilled output: the `spill_path` a cut result gave, or its file name.
    #[schemars(length(min = 1, max = 4096))]
    pub path: String,
    /// First character to read, counting from 0 (default 0).
    pub offset: Option<u64>,
    /// How many characters to return (default 10000, at most 20000).
    #[schemars(range(min = 1, max = 20000))]
    pub limit: Option<u64>,
    /// A regular expression: instead of a slice, return up to 30 matches at or after
    /// `offset`, each with 80 characters of context on either side.
    #[schemars(length(min = 1, max = 10000))]
    pub pattern: Option<String>,
}

#[async_trait]
impl Tool for ReadSpill {
    type Args = ReadSpillArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::READ_SPILL
    }

    fn description(&self) -> &str {
        "Read a tool output that was too long and was saved to the spill folder (the \
         `spill_path` of a cut result): a slice of `limit` characters from `offset`, or with \
         `pattern` the matches of a regular expression with their context."
    }

    async fn run(&self, ctx: &ToolContext, args: ReadSpillArgs) -> Result<Value, ToolError> {
        let data_dir = ctx.data_dir.clone();
        blocking(move || read_spill(&data_dir, &args)).await
    }
}

fn read_spill(data_dir: &Path, args: &ReadSpillArgs) -> Result<Value, ToolError> {
    let pattern = match &args.pattern {
        Some(p) => Some(regex::Regex::new(p).map_err(|e| {
            let error: String = e.to_string().chars().take(600).collect();
            ToolError::invalid(
                "pattern",
                format!("is not a valid regular expression: {error}"),
            )
        })?),
        None => None,
    };
    let sandbox = Sandbox::spill(data_dir)?;
    let arg = PathArg::new("path", &args.path);
    let (file, meta) = sandbox.locate(arg)?.open_file()?;
    let mut bytes = Vec::new();
    file.take(SPILL_MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| super::sandbox::io_error(arg, "read", &e))?;
    if bytes.len() as u64 > SPILL_MAX_BYTES {
        return Err(arg.error(
            ErrorKind::TooLarge,
            format!(
                "is {} bytes; read_spill reads spill files up to {SPILL_MAX_BYTES} bytes",
                meta.len()
            ),
        ));
    }
    let text = String::from_utf8_lossy(&bytes);
    let total = text.chars().count();
    let offset = usize::try_from(args.offset.unwrap_or(0)).unwrap_or(usize::MAX);
    if offset > total {
        return Err(ToolError::invalid(
            "offset",
            format!("is past the end: the output has {total} characters"),
        ));
    }
    let start = byte_at(&text, offset);
    let mut out = json!({"path": args.path, "total_chars": total, "offset": offset});
    match pattern {
        Some(pattern) => {
            let mut matches = Vec::new();
            let (mut at_byte, mut at_char) = (start, offset);
            let mut more = false;
            for found in pattern.find_iter(&text[start..]) {
                if matches.len() == MAX_MATCHES {
                    more = true;
                    break;
                }
                let (begin, end) = (start + found.start(), start + found.end());
                at_char += text[at_byte..begin].chars().count();
                at_byte = begin;
                matches.push(json!({"offset": at_char, "text": context(&text, begin, end)}));
            }
            out["count"] = json!(matches.len());
            out["matches"] = Value::Array(matches);
            out["truncated"] = json!(more);
        }
        None => {
            let limit = args
                .limit
                .unwrap_or(SPILL_DEFAULT_CHARS)
                .min(SPILL_MAX_CHARS) as usize;
            let end = byte_at(&text[start..], limit) + start;
            let returned = (total - offset).min(limit);
            out["content"] = json!(&text[start..end]);
            out["returned_chars"] = json!(returned);
            if offset + returned < total {
                out["next_offset"] = json!(offset + returned);
            }
        }
    }
    Ok(out)
}

/// The byte index of character `chars` of `text` (its length when past the end).
fn byte_at(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i)
}

/// A match (cut to [`MATCH_MAX_CHARS`]) with [`CONTEXT_CHARS`] on either side.
fn context(text: &str, begin: usize, end: usize) -> String {
    let before_start = text[..begin]
        .char_indices()
        .rev()
        .nth(CONTEXT_CHARS - 1)
        .map_or(0, |(i, _)| i);
    let matched = &text[begin..end];
    let matched_end = begin + byte_at(matched, MATCH_MAX_CHARS);
    let after_end = matched_end + byte_at(&text[matched_end..], CONTEXT_CHARS);
    let mut out = text[before_start..matched_end].to_string();
    if matched_end < end {
        out.push('…');
    } else {
        out.push_str(&text[matched_end..after_end]);
    }
    out
}
