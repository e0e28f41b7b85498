//! The view builders, without I/O: each view, each dialect's names, and results that are not
//! what their tool returns.

use hearth_protocol::{
    ContentPart, DiffLineKind, MediaKind, Message, Role, SkillDialect, ToolCall, ToolErrorKind,
    ToolResult, ToolView,
};
use serde_json::{json, Map, Value};

use super::read::TEXT_VIEW_CHARS;
use super::*;
use crate::Dialect;

fn result(name: &str, content: Value) -> ToolResult {
    raw_result(name, &content.to_string(), false)
}

fn raw_result(name: &str, content: &str, is_error: bool) -> ToolResult {
    ToolResult {
        call_id: "c1".into(),
        name: name.into(),
        content: content.into(),
        is_error,
        duration_ms: 1,
        images: Vec::new(),
        views: Vec::new(),
    }
}

fn views(canonical: &str, args: Value, content: Value) -> Vec<ToolView> {
    result_views(
        Some(canonical),
        &args.to_string(),
        &result(canonical, content),
    )
}

/// The result `write_file` gives for a change of `before` into `after`.
fn written(path: &str, before: &str, after: &str) -> Value {
    let mut fields = Map::new();
    fields.insert("path".into(), json!(path));
    crate::fs::diff::add_diff(&mut fields, path, false, before, after);
    Value::Object(fields)
}

#[test]
fn a_file_tools_diff_is_numbered_lines_with_counts() {
    let content = written("notes.md", "a\nb\nc\n", "a\nB\nc\nd\n");
    let [ToolView::Diff {
        path,
        lines,
        added,
        removed,
        truncated,
    }] = &views("write_file", json!({}), content)[..]
    else {
        panic!("one diff view");
    };
    assert_eq!(path, "notes.md");
    assert_eq!((*added, *removed, *truncated), (2, 1, false));
    let kinds: Vec<_> = lines.iter().map(|l| l.kind).collect();
    use DiffLineKind::*;
    assert_eq!(kinds, [File, File, Hunk, Context, Del, Add, Context, Add]);
    let del = &lines[4];
    assert_eq!(
        (del.text.as_str(), del.old_no, del.new_no),
        ("b", Some(2), None)
    );
    let last = &lines[7];
    assert_eq!(
        (last.text.as_str(), last.old_no, last.new_no),
        ("d", None, Some(4))
    );
}

#[test]
fn a_cut_diff_says_so_and_the_path_comes_from_the_arguments_when_the_result_has_none() {
    let content = json!({"diff": "@@ -1 +1 @@\n-x\n+y\n", "diff_truncated": true});
    let views = views("patch", json!({"file_path": "src/lib.rs"}), content);
    assert!(matches!(
        &views[..],
        [ToolView::Diff { path, truncated: true, added: 1, removed: 1, .. }] if path == "src/lib.rs"
    ));
}

#[test]
fn every_dialects_file_tool_names_resolve_to_their_canonical_tool() {
    let cases = [
        (Dialect::Hearth, "write_file", Some("write_file")),
        (Dialect::Hearth, "edit_file", Some("edit_file")),
        (Dialect::Echo, "patch", Some("patch")),
        (Dialect::Ceecore, "write_file", Some("write_file")),
        (Dialect::Picobot, "file_write", Some("write_file")),
        (Dialect::Picobot, "file_edit", Some("edit_file")),
        (Dialect::Picobot, "content_search", Some("search_files")),
        (Dialect::Picobot, "file_search", Some("search_files")),
        (Dialect::Picobot, "bash", Some("exec")),
        (Dialect::Hearth, "image_generate", Some("image_generate")),
        (Dialect::Hearth, "browser", Some("browser")),
        (Dialect::Hearth, "file_write", None),
        (Dialect::Hearth, "mcp__github__create_issue", None),
    ];
    for (dialect, name, canonical) in cases {
        assert_eq!(
            canonical_name(dialect, name).as_deref(),
            canonical,
            "{dialect} {name}"
        );
    }
}

#[test]
fn search_hits_are_grouped_by_file_with_the_matches_marked() {
    let content = json!({
        "pattern": "fo+",
        "matches": [
            {"path": "a.rs", "line_number": 3, "line": "let foo = fooo;"},
            {"path": "b.rs", "line_number": 1, "line": "nothing"},
            {"path": "a.rs", "line_number": 9, "line": "fo"},
            {"path": "c.rs", "line": "no number"}
        ],
        "count": 7,
        "truncated": true
    });
    let [ToolView::SearchHits {
        pattern,
        groups,
        count,
        truncated,
    }] = &views("search_files", json!({}), content)[..]
    else {
        panic!("one search view");
    };
    assert_eq!((pattern.as_str(), *count, *truncated), ("fo+", 7, true));
    let paths: Vec<_> = groups.iter().map(|g| g.path.as_str()).collect();
    assert_eq!(paths, ["a.rs", "b.rs"]);
    let first: Vec<_> = groups[0].hits[0]
        .segments
        .iter()
        .map(|s| (s.text.as_str(), s.hit))
        .collect();
    assert_eq!(
        first,
        [
            ("let ", false),
            ("foo", true),
            (" = ", false),
            ("fooo", true),
            (";", false)
        ]
    );
    assert_eq!(groups[0].hits[1].line_number, 9);
    assert!(!groups[1].hits[0].segments[0].hit);
}

#[test]
fn a_pattern_the_regex_engine_refuses_leaves_the_lines_plain_and_the_arguments_name_it() {
    let content = json!({"matches": [{"path": "a", "line_number": 1, "line": "a(b"}]});
    let [ToolView::SearchHits {
        pattern,
        groups,
        count,
        ..
    }] = &views("search_files", json!({"pattern": "a(b"}), content)[..]
    else {
        panic!("one search view");
    };
    assert_eq!((pattern.as_str(), *count), ("a(b", 1));
    assert_eq!(groups[0].hits[0].segments.len(), 1);
    assert!(!groups[0].hits[0].segments[0].hit);
}

#[test]
fn a_glob_search_lists_the_files_it_found() {
    let content =
        json!({"pattern": "*.md", "files": [{"path": "a.md"}, {"path": "docs", "kind": "dir"}, 3]});
    let [ToolView::FileList {
        files,
        truncated: false,
        ..
    }] = &views("search_files", json!({}), content)[..]
    else {
        panic!("one file list");
    };
    let found: Vec<_> = files
        .iter()
        .map(|f| (f.path.as_str(), f.kind.as_str()))
        .collect();
    assert_eq!(found, [("a.md", "file"), ("docs", "dir")]);
}

#[test]
fn generated_images_and_audio_are_media_and_other_types_are_not() {
    let image = views(
        "image_generate",
        json!({}),
        json!({"path": "out/cat.png", "mime_type": "image/png"}),
    );
    assert!(
        matches!(&image[..], [ToolView::Media { media: MediaKind::Image, path, .. }] if path == "out/cat.png")
    );
    let audio = views(
        "text_to_speech",
        json!({}),
        json!({"path": "a.mp3", "mime_type": "audio/mpeg"}),
    );
    assert!(matches!(
        &audio[..],
        [ToolView::Media {
            media: MediaKind::Audio,
            ..
        }]
    ));
    let other = views(
        "image_generate",
        json!({}),
        json!({"path": "a.bin", "mime_type": "application/zip"}),
    );
    assert!(other.is_empty());
}

#[test]
fn the_browser_shows_its_action_and_page_even_when_the_call_failed() {
    let ok = views(
        "browser",
        json!({"action": "navigate", "url": "https://asked.example"}),
        json!({"url": "https://landed.example", "title": "Landed", "snapshot": "- heading"}),
    );
    assert_eq!(
        ok,
        [ToolView::BrowserPage {
            action: "navigate".into(),
            url: Some("https://landed.example".into()),
            title: Some("Landed".into()),
            snapshot: Some("- heading".into()),
        }]
    );
    let error = json!({"error": {"kind": "timeout", "message": "slow"}}).to_string();
    let failed = result_views(
        Some("browser"),
        &json!({"action": "navigate", "url": "https://asked.example"}).to_string(),
        &raw_result("browser", &error, true),
    );
    assert!(matches!(&failed[..], [
        ToolView::Failure { error: ToolErrorKind::Timeout, .. },
        ToolView::BrowserPage { url: Some(url), title: None, .. },
    ] if url == "https://asked.example"));
}

#[test]
fn knowledge_citations_and_a_pty_terminal_are_viewed() {
    let hit = json!({"file": "/k/a.md", "unit": "line", "first": 1, "last": 2, "label": null,
        "citation": "a.md, lines 1-2", "snippet": "text", "score": 1.5});
    let cited = views(
        "knowledge_search",
        json!({}),
        json!({"results": [hit, {"bad": true}]}),
    );
    assert!(
        matches!(&cited[..], [ToolView::Citations { hits }] if hits.len() == 1 && hits[0].file == "/k/a.md")
    );
    assert!(views("knowledge_search", json!({}), json!({"results": []})).is_empty());
    let started = views(
        "pty",
        json!({}),
        json!({"session_id": "t1", "rows": 24, "cols": 80}),
    );
    assert_eq!(
        started,
        [ToolView::Terminal {
            session_id: "t1".into()
        }]
    );
    assert!(views(
        "pty",
        json!({}),
        json!({"session_id": "t1", "bytes_written": 3})
    )
    .is_empty());
}

#[test]
fn a_failed_call_shows_its_error_kind_and_an_unknown_kind_reads_as_failed() {
    let error = json!({"error": {"kind": "invalid_arguments", "message": "bad", "field": "path"}});
    let known = result_views(None, "", &raw_result("mcp__x__y", &error.to_string(), true));
    assert_eq!(
        known,
        [ToolView::Failure {
            error: ToolErrorKind::InvalidArguments,
            message: "bad".into(),
            field: Some("path".into()),
        }]
    );
    let unknown = json!({"error": {"kind": "exploded", "message": "boom"}}).to_string();
    let views = result_views(None, "", &raw_result("x", &unknown, true));
    assert!(matches!(
        &views[..],
        [ToolView::Failure {
            error: ToolErrorKind::Failed,
            ..
        }]
    ));
    assert!(result_views(None, "", &raw_result("x", "not json", true)).is_empty());
}

#[test]
fn a_malformed_or_oversized_result_of_a_viewed_tool_is_shown_as_text_and_others_get_nothing() {
    let malformed = result_views(
        Some("write_file"),
        "{",
        &raw_result("write_file", "{\"diff\": ", false),
    );
    assert_eq!(
        malformed,
        [ToolView::Text {
            text: "{\"diff\": ".into(),
            truncated: false
        }]
    );
    let huge = "x".repeat(super::read::VIEWED_RESULT_MAX_BYTES + 1);
    let cut = result_views(
        Some("search_files"),
        "",
        &raw_result("search_files", &huge, false),
    );
    assert!(
        matches!(&cut[..], [ToolView::Text { text, truncated: true }] if text.chars().count() == TEXT_VIEW_CHARS)
    );
    let multibyte = "é".repeat(TEXT_VIEW_CHARS + 5);
    let cut = result_views(Some("pty"), "", &raw_result("pty", &multibyte, false));
    assert!(
        matches!(&cut[..], [ToolView::Text { text, truncated: true }] if text.chars().count() == TEXT_VIEW_CHARS)
    );
    assert!(views("write_file", json!({}), json!({"path": "a", "bytes": 3})).is_empty());
    assert!(views("calculator", json!({}), json!({"value": 3})).is_empty());
    assert!(result_views(None, "", &raw_result("mcp__x", "not json", false)).is_empty());
}

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

fn message(id: i64, role: Role, content: Vec<ContentPart>) -> Message {
    let row = json!({"id": id, "session_id": "s", "role": role, "kind": "normal",
        "content": content, "status": "complete", "created_at": 0, "updated_at": 0});
    serde_json::from_value(row).expect("a message row")
}

fn turn(
    first_id: i64,
    user: Vec<ContentPart>,
    call: (&str, &str, Value),
    content: Value,
) -> Vec<Message> {
    let (id, name, args) = call;
    let mut assistant = message(first_id + 1, Role::Assistant, Vec::new());
    assistant.tool_calls = vec![ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: args.to_string(),
        signature: None,
    }];
    let mut answer = message(first_id + 2, Role::Tool, Vec::new());
    answer.tool_result = Some(ToolResult {
        call_id: id.into(),
        views: vec![ToolView::Text {
            text: "stale".into(),
            truncated: false,
        }],
        ..result(name, content)
    });
    vec![message(first_id, Role::User, user), assistant, answer]
}

#[test]
fn a_loaded_page_views_each_result_with_its_call_in_its_turns_dialect() {
    let skill = ContentPart::Skill {
        name: "notes".into(),
        dialect: SkillDialect::Picobot,
        folder: "/skills/notes".into(),
        instructions_file: "prompt.md".into(),
        instructions: "Write notes.".into(),
    };
    let diff = json!({"diff": "@@ -1 +1 @@\n-a\n+b\n"});
    let mut page = turn(
        1,
        vec![skill],
        ("c1", "file_write", json!({"path": "n.md"})),
        diff.clone(),
    );
    page.extend(turn(
        4,
        vec![ContentPart::Text {
            text: "again".into(),
        }],
        ("c2", "file_write", json!({})),
        diff,
    ));
    page.extend(turn(
        7,
        Vec::new(),
        ("c3", "browser", json!({"action": "snapshot"})),
        json!({}),
    ));
    attach_views(&mut page);
    let viewed: Vec<_> = page
        .iter()
        .filter_map(|m| m.tool_result.as_ref())
        .map(|r| &r.views)
        .collect();
    assert!(matches!(&viewed[0][..], [ToolView::Diff { path, .. }] if path == "n.md"));
    assert!(
        viewed[1].is_empty(),
        "file_write is no Hearth tool: {:?}",
        viewed[1]
    );
    assert!(
        matches!(&viewed[2][..], [ToolView::BrowserPage { action, .. }] if action == "snapshot")
    );
}

#[test]
fn a_result_whose_call_is_not_in_the_page_is_viewed_without_arguments() {
    let mut page = turn(
        1,
        Vec::new(),
        ("c1", "browser", json!({"action": "click"})),
        json!({"title": "T"}),
    );
    page.remove(1);
    attach_views(&mut page);
    let views = &page[1]
        .tool_result
        .as_ref()
        .map(|r| r.views.clone())
        .unwrap_or_default();
    assert!(
        matches!(&views[..], [ToolView::BrowserPage { action, title: Some(t), .. }] if action == "?" && t == "T")
    );
}

#[test]
fn a_running_browser_call_shows_its_action_and_other_calls_show_nothing() {
    let args = json!({"action": "navigate", "url": "https://a.example"}).to_string();
    assert_eq!(
        call_views(Some("browser"), &args),
        [ToolView::BrowserPage {
            action: "navigate".into(),
            url: Some("https://a.example".into()),
            title: None,
            snapshot: None,
        }]
    );
    assert!(call_views(Some("write_file"), &args).is_empty());
    assert!(call_views(None, "{").is_empty());
}
