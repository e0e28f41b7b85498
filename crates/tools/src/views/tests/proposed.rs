//! What an edit waiting for approval would change, and the calls that propose nothing.

use hearth_protocol::{DiffLineKind, ToolView};
use serde_json::json;

use super::*;

/// The path, the lines as (kind, text) and the (added, removed) counts of a proposed diff.
fn proposed(canonical: &str, arguments: &str) -> (String, Vec<(DiffLineKind, String)>, (u32, u32)) {
    match proposed_view(canonical, arguments) {
        Some(ToolView::Diff {
            path,
            lines,
            added,
            removed,
            ..
        }) => {
            let lines = lines.into_iter().map(|l| (l.kind, l.text)).collect();
            (path, lines, (added, removed))
        }
        other => panic!("a diff, not {other:?}"),
    }
}

#[test]
fn an_edit_waiting_for_approval_shows_what_it_would_change() {
    let edit =
        json!({"path": "a.txt", "old_string": "one\ntwo\n", "new_string": "three"}).to_string();
    let (path, lines, counts) = proposed("edit_file", &edit);
    assert_eq!((path.as_str(), counts), ("a.txt", (1, 2)));
    use DiffLineKind::*;
    assert_eq!(
        lines,
        [
            (Del, "one".into()),
            (Del, "two".into()),
            (Add, "three".into())
        ]
    );
    let write = json!({"path": "new.txt", "content": "x\ny\n"}).to_string();
    assert_eq!(proposed("write_file", &write).2, (2, 0));
    let empty = json!({"path": "empty", "content": ""}).to_string();
    assert_eq!(proposed("write_file", &empty).1, []);
}

#[test]
fn a_patch_waiting_for_approval_shows_its_blocks_or_its_diff() {
    let blocks = "<<<<<<< SEARCH\nold\n=======\nnew\nnewer\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nx\n=======\n>>>>>>> REPLACE\n";
    let args = json!({"file_path": "f.rs", "patch": blocks}).to_string();
    let (path, lines, counts) = proposed("patch", &args);
    assert_eq!((path.as_str(), counts), ("f.rs", (2, 2)));
    let texts: Vec<_> = lines
        .iter()
        .map(|(kind, text)| (*kind, text.as_str()))
        .collect();
    use DiffLineKind::*;
    assert_eq!(
        texts,
        [
            (Hunk, "@@ block 1 @@"),
            (Del, "old"),
            (Add, "new"),
            (Add, "newer"),
            (Hunk, "@@ block 2 @@"),
            (Del, "x")
        ]
    );
    let unified =
        json!({"file_path": "f.rs", "patch": "@@ -4,2 +4,2 @@\n keep\n-gone\n+came\n"}).to_string();
    let Some(ToolView::Diff { lines, .. }) = proposed_view("patch", &unified) else {
        panic!("a diff");
    };
    assert_eq!((lines[1].old_no, lines[1].new_no), (Some(4), Some(4)));
    assert_eq!(lines[3].new_no, Some(5));
}

#[test]
fn calls_that_are_not_edits_or_whose_arguments_the_tool_would_refuse_propose_nothing() {
    assert_eq!(
        proposed_view("exec", &json!({"command": "ls"}).to_string()),
        None
    );
    assert_eq!(proposed_view("edit_file", "{not json"), None);
    assert_eq!(
        proposed_view("edit_file", &json!({"path": "a"}).to_string()),
        None
    );
    assert_eq!(
        proposed_view("patch", &json!({"file_path": 3, "patch": ""}).to_string()),
        None
    );
}
