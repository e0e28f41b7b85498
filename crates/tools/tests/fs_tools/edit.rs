//! edit_file: one exact replacement with its diff, absent and ambiguous strings, replace_all,
//! CRLF files and malformed arguments.

use crate::fs_tools::{env, put, text};
use hearth_tools::ErrorKind;
use serde_json::json;

#[tokio::test]
async fn replaces_once_and_shows_the_diff() {
    let env = env();
    put(
        &env.ws("src/main.rs"),
        b"fn main() {\n    println!(\"hi\");\n}\n",
    );
    let result = env
        .ok(
            "edit_file",
            json!({"path": "src/main.rs", "old_string": "\"hi\"", "new_string": "\"hello\""}),
        )
        .await;
    assert_eq!(result["replacements"], 1);
    assert_eq!(
        text(&env.ws("src/main.rs")),
        "fn main() {\n    println!(\"hello\");\n}\n"
    );
    assert_eq!(
        result["diff"],
        "--- a/src/main.rs\n+++ b/src/main.rs\n@@ -1,3 +1,3 @@\n fn main() {\n-    println!(\"hi\");\n+    println!(\"hello\");\n }\n"
    );
}

#[tokio::test]
async fn absent_and_ambiguous_strings_change_nothing() {
    let env = env();
    put(&env.ws("a.txt"), b"x = 1\nx = 1\ny = 2\n");
    let absent = env
        .err(
            "edit_file",
            json!({"path": "a.txt", "old_string": "z = 3", "new_string": "z = 4"}),
        )
        .await;
    assert_eq!(
        (absent.kind, absent.field.as_deref()),
        (ErrorKind::InvalidArguments, Some("old_string"))
    );
    assert!(
        absent.message.contains("was not found in `a.txt`"),
        "{absent:?}"
    );
    let ambiguous = env
        .err(
            "edit_file",
            json!({"path": "a.txt", "old_string": "x = 1", "new_string": "x = 9"}),
        )
        .await;
    assert_eq!(ambiguous.field.as_deref(), Some("old_string"));
    assert!(
        ambiguous.message.contains("occurs 2 times"),
        "{ambiguous:?}"
    );
    assert_eq!(text(&env.ws("a.txt")), "x = 1\nx = 1\ny = 2\n");
    let all = env
        .ok(
            "edit_file",
            json!({"path": "a.txt", "old_string": "x = 1", "new_string": "x = 9", "replace_all": true}),
        )
        .await;
    assert_eq!(all["replacements"], 2);
    assert_eq!(text(&env.ws("a.txt")), "x = 9\nx = 9\ny = 2\n");
}

#[tokio::test]
async fn crlf_files_keep_their_line_breaks() {
    let env = env();
    put(&env.ws("win.txt"), b"one\r\ntwo\r\nthree\r\n");
    let result = env
        .ok(
            "edit_file",
            json!({"path": "win.txt", "old_string": "one\ntwo", "new_string": "1\n2"}),
        )
        .await;
    assert_eq!(result["replacements"], 1);
    assert_eq!(text(&env.ws("win.txt")), "1\r\n2\r\nthree\r\n");
}

#[tokio::test]
async fn missing_files_and_malformed_arguments() {
    let env = env();
    let missing = env
        .err(
            "edit_file",
            json!({"path": "none.txt", "old_string": "a", "new_string": "b"}),
        )
        .await;
    crate::fs_tools::assert_refused(&missing, ErrorKind::NotFound, "none.txt");
    assert!(!env.ws("none.txt").exists());
    put(&env.ws("a.txt"), b"abc");
    let cases = [
        (json!({"path": "a.txt", "new_string": "b"}), "old_string"),
        (json!({"path": "a.txt", "old_string": "a"}), "new_string"),
        (
            json!({"path": "a.txt", "old_string": "", "new_string": "b"}),
            "old_string",
        ),
        (
            json!({"path": "a.txt", "old_string": "a", "new_string": "a"}),
            "new_string",
        ),
        (
            json!({"path": "a.txt", "old_string": 1, "new_string": "b"}),
            "old_string",
        ),
        (
            json!({"path": "a.txt", "old_string": "a", "new_string": "b", "replace_all": 1}),
            "replace_all",
        ),
        (json!({"old_string": "a", "new_string": "b"}), "path"),
    ];
    for (args, field) in cases {
        let error = env.err("edit_file", args.clone()).await;
        assert_eq!(
            (error.kind, error.field.as_deref()),
            (ErrorKind::InvalidArguments, Some(field)),
            "{args}"
        );
    }
    assert_eq!(text(&env.ws("a.txt")), "abc");
}
