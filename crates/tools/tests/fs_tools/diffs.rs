//! The diffs mutating file tools report: write_file (replace, append, create; none for other
//! encodings or big files), patch creating a file, and the size cap on a huge edit.

use crate::fs_tools::{env, put, text};
use serde_json::json;

#[tokio::test]
async fn write_file_diffs_replacements_and_appends() {
    let env = env();
    put(&env.ws("notes.md"), b"one\ntwo\nthree\n");
    let replaced = env
        .ok(
            "write_file",
            json!({"path": "notes.md", "content": "one\n2\nthree\n"}),
        )
        .await;
    assert_eq!(
        replaced["diff"],
        "--- a/notes.md\n+++ b/notes.md\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"
    );
    assert!(replaced.get("diff_truncated").is_none());
    let appended = env
        .ok(
            "write_file",
            json!({"path": "notes.md", "content": "four\n", "append": true}),
        )
        .await;
    assert_eq!(
        appended["diff"],
        "--- a/notes.md\n+++ b/notes.md\n@@ -1,3 +1,4 @@\n one\n 2\n three\n+four\n"
    );
    assert_eq!(text(&env.ws("notes.md")), "one\n2\nthree\nfour\n");
}

#[tokio::test]
async fn write_file_leaves_out_diffs_it_cannot_show_as_text() {
    let env = env();
    let gbk = env
        .ok(
            "write_file",
            json!({"path": "gbk.txt", "content": "汉字\n", "encoding": "gbk"}),
        )
        .await;
    assert!(gbk.get("diff").is_none(), "{gbk}");
    put(&env.ws("blob.bin"), &[0xff, 0xfe, 0x00, 0x81]);
    let over_binary = env
        .ok(
            "write_file",
            json!({"path": "blob.bin", "content": "text\n"}),
        )
        .await;
    assert!(over_binary.get("diff").is_none(), "{over_binary}");
    let big = "x\n".repeat(600 * 1024);
    let large = env
        .ok("write_file", json!({"path": "big.txt", "content": big}))
        .await;
    assert_eq!(large["bytes_written"], 1200 * 1024);
    assert!(large.get("diff").is_none());
}

#[tokio::test]
async fn patch_creating_a_file_diffs_against_dev_null() {
    let env = env();
    let result = env
        .ok(
            "patch",
            json!({"file_path": "new.txt", "patch": "@@ -0,0 +1,2 @@\n+hello\n+world\n"}),
        )
        .await;
    assert_eq!(result["created"], true);
    assert_eq!(
        result["diff"],
        "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n"
    );
}

#[tokio::test]
async fn a_huge_edit_reports_a_cut_diff_not_a_spill() {
    let env = env();
    let before: String = (0..4000).map(|i| format!("row {i}\n")).collect();
    put(&env.ws("rows.txt"), before.as_bytes());
    let result = env
        .ok(
            "edit_file",
            json!({"path": "rows.txt", "old_string": "row", "new_string": "line", "replace_all": true}),
        )
        .await;
    assert_eq!(
        result["replacements"], 4000,
        "whole result, not a spill envelope"
    );
    assert_eq!(result["diff_truncated"], true);
    let diff = result["diff"].as_str().unwrap();
    assert!(diff.len() <= 20_100, "{}", diff.len());
    assert!(diff.starts_with("--- a/rows.txt\n+++ b/rows.txt\n@@ -1,4000 +1,4000 @@\n-row 0\n"));
    assert!(diff
        .trim_end()
        .lines()
        .last()
        .unwrap()
        .starts_with("\\ diff cut here: "));
    assert!(text(&env.ws("rows.txt")).ends_with("line 3999\n"));
}
