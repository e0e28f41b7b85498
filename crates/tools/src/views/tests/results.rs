//! Each canonical tool's view of a finished call, each dialect's names, failures, and results
//! that are not what their tool returns.

use hearth_protocol::{DiffLineKind, MediaKind, ToolErrorKind, ToolView};
use serde_json::json;

use super::*;

use crate::views::read::TEXT_VIEW_CHARS;
use crate::Dialect;

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
