//! What an edit waiting for approval would change, from its arguments alone: `edit_file` (old
//! text removed, new text added), `patch` (its unified diff, or its SEARCH/REPLACE blocks as
//! read by the patch tool itself) and `write_file` (the content to be written).

use hearth_protocol::{DiffLine, DiffLineKind, ToolView};
use serde::de::DeserializeOwned;

use super::diff::{diff_view, parse_unified, text_lines, unnumbered};
use crate::fs::{is_patch_blocks, parse_patch, EditFileArgs, PatchArgs, WriteFileArgs};
use hearth_policy::catalogue::{EDIT_FILE, PATCH, WRITE_FILE};

/// The arguments as the canonical tool's, or `None` when they are not.
fn typed<T: DeserializeOwned>(arguments: &str) -> Option<T> {
    if arguments.len() > super::read::VIEWED_RESULT_MAX_BYTES {
        return None;
    }
    serde_json::from_str(arguments).ok()
}

fn lines_of(kind: DiffLineKind, text: &str) -> impl Iterator<Item = DiffLine> + '_ {
    text_lines(text).map(move |line| unnumbered(kind, line))
}

/// A patch's lines: each SEARCH/REPLACE block as a numbered hunk of removed then added lines,
/// or the unified diff as it is.
fn patch_lines(patch: &str) -> Vec<DiffLine> {
    let parsed = if is_patch_blocks(patch) {
        parse_patch(patch).ok()
    } else {
        None
    };
    let Some(parsed) = parsed else {
        return parse_unified(patch);
    };
    let mut lines = Vec::new();
    for (i, hunk) in parsed.hunks.iter().enumerate() {
        lines.push(unnumbered(
            DiffLineKind::Hunk,
            &format!("@@ block {} @@", i + 1),
        ));
        lines.extend(hunk.old.iter().map(|l| unnumbered(DiffLineKind::Del, l)));
        lines.extend(hunk.new.iter().map(|l| unnumbered(DiffLineKind::Add, l)));
    }
    lines
}

/// The change the call of `canonical` with `arguments` would make, or `None` for other tools
/// and arguments the tool would refuse (the approval then shows only the arguments).
pub fn proposed_view(canonical: &str, arguments: &str) -> Option<ToolView> {
    let (path, lines) = if canonical == EDIT_FILE.name {
        let args: EditFileArgs = typed(arguments)?;
        let lines = lines_of(DiffLineKind::Del, &args.old_string)
            .chain(lines_of(DiffLineKind::Add, &args.new_string))
            .collect();
        (args.path, lines)
    } else if canonical == PATCH.name {
        let args: PatchArgs = typed(arguments)?;
        (args.file_path, patch_lines(&args.patch))
    } else if canonical == WRITE_FILE.name {
        let args: WriteFileArgs = typed(arguments)?;
        let lines = lines_of(DiffLineKind::Add, &args.content).collect();
        (args.path, lines)
    } else {
        return None;
    };
    Some(diff_view(path, lines, false))
}
