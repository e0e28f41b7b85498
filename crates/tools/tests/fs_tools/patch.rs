//! patch: unified diffs (exact, shifted, fuzzy), SEARCH/REPLACE blocks, all-or-nothing on a
//! bad hunk, new files, line endings and malformed patches.

use crate::fs_tools::{env, mtime, put, text};
use hearth_tools::ErrorKind;
use serde_json::json;

const SOURCE: &str = "fn one() {\n    1\n}\n\nfn two() {\n    2\n}\n\nfn three() {\n    3\n}\n";

#[tokio::test]
async fn applies_a_unified_diff() {
    let env = env();
    put(&env.ws("lib.rs"), SOURCE.as_bytes());
    let diff = "--- a/lib.rs\n+++ b/lib.rs\n@@ -1,3 +1,3 @@\n fn one() {\n-    1\n+    10\n }\n@@ -9,3 +9,3 @@\n fn three() {\n-    3\n+    30\n }\n";
    let result = env
        .ok("patch", json!({"file_path": "lib.rs", "patch": diff}))
        .await;
    assert_eq!(result["hunks_applied"], 2);
    assert_eq!(result["fuzzy"], json!([]));
    assert_eq!(result["created"], false);
    assert_eq!(
        text(&env.ws("lib.rs")),
        SOURCE
            .replace("    1\n", "    10\n")
            .replace("    3\n", "    30\n")
    );
    assert!(result["diff"]
        .as_str()
        .is_some_and(|d| d.contains("+    30")));
}

#[tokio::test]
async fn wrong_line_numbers_and_blank_context_still_apply_exactly() {
    let env = env();
    put(&env.ws("lib.rs"), SOURCE.as_bytes());
    // Off by 40 lines, counts wrong, the blank context line without its space.
    let diff = "@@ -45,9 +45,2 @@\n }\n\n fn two() {\n-    2\n+    22\n";
    let result = env
        .ok("patch", json!({"file_path": "lib.rs", "patch": diff}))
        .await;
    assert_eq!(result["fuzzy"], json!([]));
    assert!(text(&env.ws("lib.rs")).contains("fn two() {\n    22\n}"));
}

#[tokio::test]
async fn fuzzy_hunks_report_where_and_how_similar() {
    let env = env();
    put(&env.ws("lib.rs"), SOURCE.as_bytes());
    // The model remembered `fn two()` as `fn two ()` and the body as `  2`.
    let diff = "@@ -5,3 +5,3 @@\n fn two () {\n-  2\n+    200\n }\n";
    let result = env
        .ok("patch", json!({"file_path": "lib.rs", "patch": diff}))
        .await;
    let fuzzy = &result["fuzzy"][0];
    assert_eq!(
        (fuzzy["hunk"].as_u64(), fuzzy["line"].as_u64()),
        (Some(1), Some(5))
    );
    let similarity = fuzzy["similarity"].as_f64().unwrap_or(0.0);
    assert!((0.6..1.0).contains(&similarity), "{similarity}");
    assert!(text(&env.ws("lib.rs")).contains("fn two () {\n    200\n}"));
}

#[tokio::test]
async fn one_bad_hunk_leaves_the_file_untouched() {
    let env = env();
    let path = env.ws("lib.rs");
    put(&path, SOURCE.as_bytes());
    // An hour-old mtime, which any rewrite of the file would change (no wait for the clock).
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(hour_ago).unwrap();
    drop(file);
    let before = mtime(&path);
    let diff = "@@ -1,3 +1,3 @@\n fn one() {\n-    1\n+    10\n }\n@@ -5,3 +5,3 @@\n struct Nothing;\n-impl Like This {}\n+impl Other {}\n";
    let error = env
        .err("patch", json!({"file_path": "lib.rs", "patch": diff}))
        .await;
    assert_eq!(
        (error.kind, error.field.as_deref()),
        (ErrorKind::InvalidArguments, Some("patch"))
    );
    assert!(
        error.message.contains("hunk 2 (@@ -5,3 +5,3 @@)"),
        "{error:?}"
    );
    assert!(error.message.contains("no change was made"), "{error:?}");
    assert_eq!(text(&path), SOURCE);
    assert_eq!(mtime(&path), before);
    assert_eq!(
        crate::fs_tools::entries(&env.ws("")),
        ["lib.rs"],
        "no temp file left"
    );
    // The same hunk at threshold 0 applies wherever is most similar.
    let loose = env
        .ok(
            "patch",
            json!({"file_path": "lib.rs", "patch": diff, "fuzzy_threshold": 0.0}),
        )
        .await;
    assert_eq!(loose["hunks_applied"], 2);
    // And at 1.0 only exact hunks apply.
    put(&path, SOURCE.as_bytes());
    let strict = env
        .err(
            "patch",
            json!({"file_path": "lib.rs", "patch": "@@ -1 +1 @@\n-fn one () {\n+fn uno() {\n", "fuzzy_threshold": 1.0}),
        )
        .await;
    assert!(strict.message.contains("hunk 1"), "{strict:?}");
    assert_eq!(text(&path), SOURCE);
}

#[tokio::test]
async fn search_replace_blocks() {
    let env = env();
    put(&env.ws("lib.rs"), SOURCE.as_bytes());
    let blocks = "lib.rs\n```\n<<<<<<< SEARCH\nfn three() {\n    3\n=======\nfn three() {\n    3 + 0\n>>>>>>> REPLACE\n```\n<<<<<<< SEARCH\nfn one() {\n=======\nfn first() {\n>>>>>>> REPLACE\n";
    let result = env
        .ok("patch", json!({"file_path": "lib.rs", "patch": blocks}))
        .await;
    assert_eq!(result["hunks_applied"], 2);
    let now = text(&env.ws("lib.rs"));
    assert!(now.starts_with("fn first() {\n    1\n}"), "{now}");
    assert!(now.contains("    3 + 0\n}"), "{now}");
    let unclosed = env
        .err(
            "patch",
            json!({"file_path": "lib.rs", "patch": "<<<<<<< SEARCH\na\n=======\nb\n"}),
        )
        .await;
    assert!(
        unclosed.message.contains("block 1 is not closed"),
        "{unclosed:?}"
    );
}

#[tokio::test]
async fn git_diff_headers_are_understood() {
    let env = env();
    put(&env.ws("a.txt"), b"one\ntwo\n");
    let diff = "diff --git a/a.txt b/a.txt\nindex 5626abf..f719efd 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n";
    env.ok("patch", json!({"file_path": "a.txt", "patch": diff}))
        .await;
    assert_eq!(text(&env.ws("a.txt")), "one\n2\n");
}

#[tokio::test]
async fn new_files_and_line_endings() {
    let env = env();
    let create = "--- /dev/null\n+++ b/docs/new.md\n@@ -0,0 +1,2 @@\n+# New\n+text\n";
    let result = env
        .ok(
            "patch",
            json!({"file_path": "docs/new.md", "patch": create}),
        )
        .await;
    assert_eq!(result["created"], true);
    assert_eq!(text(&env.ws("docs/new.md")), "# New\ntext\n");
    // A hunk that needs existing text on a missing file: not found, nothing created.
    let error = env
        .err(
            "patch",
            json!({"file_path": "nothere/x.md", "patch": "@@ -1 +1 @@\n-a\n+b\n"}),
        )
        .await;
    crate::fs_tools::assert_refused(&error, ErrorKind::NotFound, "nothere/x.md");
    assert!(!env.ws("nothere").exists());
    put(&env.ws("win.txt"), b"a\r\nb\r\nc\r\n");
    env.ok(
        "patch",
        json!({"file_path": "win.txt", "patch": "@@ -2 +2 @@\n-b\n+B\n"}),
    )
    .await;
    assert_eq!(text(&env.ws("win.txt")), "a\r\nB\r\nc\r\n");
    put(&env.ws("nl.txt"), b"a\nb\n");
    let drop_newline = "@@ -2 +2 @@\n-b\n+c\n\\ No newline at end of file\n";
    env.ok(
        "patch",
        json!({"file_path": "nl.txt", "patch": drop_newline}),
    )
    .await;
    assert_eq!(text(&env.ws("nl.txt")), "a\nc");
}

#[tokio::test]
async fn malformed_patches_and_arguments() {
    let env = env();
    put(&env.ws("a.txt"), b"a\n");
    let patches = [
        ("just some words", "neither a unified diff"),
        ("@@ -1 +1 @@\n-a\n*b\n", "not a diff line"),
        (
            "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n",
            "more than one file",
        ),
        (
            "diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-a\n+c\n",
            "more than one file",
        ),
        ("@@ -1 +1 @@\n", "no change"),
        ("<<<<<<< SEARCH\na\n>>>>>>> REPLACE\n", "no `=======`"),
    ];
    for (patch, message) in patches {
        let error = env
            .err("patch", json!({"file_path": "a.txt", "patch": patch}))
            .await;
        assert_eq!(
            error.field.as_deref(),
            Some("patch"),
            "{patch:?}: {error:?}"
        );
        assert!(error.message.contains(message), "{patch:?}: {error:?}");
    }
    let cases = [
        (json!({"file_path": "a.txt"}), "patch"),
        (json!({"patch": "@@ -1 +1 @@\n-a\n+b\n"}), "file_path"),
        (
            json!({"file_path": "a.txt", "patch": "x", "path": "a.txt"}),
            "path",
        ),
        (json!({"file_path": "a.txt", "patch": ""}), "patch"),
        (
            json!({"file_path": "a.txt", "patch": "x", "fuzzy_threshold": 1.5}),
            "fuzzy_threshold",
        ),
        (
            json!({"file_path": "a.txt", "patch": "x", "fuzzy_threshold": -0.1}),
            "fuzzy_threshold",
        ),
        (
            json!({"file_path": "a.txt", "patch": "x", "fuzzy_threshold": "high"}),
            "fuzzy_threshold",
        ),
    ];
    for (args, field) in cases {
        let error = env.err("patch", args.clone()).await;
        assert_eq!(
            (error.kind, error.field.as_deref()),
            (ErrorKind::InvalidArguments, Some(field)),
            "{args}"
        );
    }
    assert_eq!(text(&env.ws("a.txt")), "a\n");
}
