//! Agent-style runs: every dialect's file tool names through `builtin_registry(dialect)`,
//! writing, reading, editing, patching and searching as a model would.

use crate::fs_tools::registry;
use crate::fs_tools::{env, text};
use hearth_policy::ToolProfile;
use hearth_tools::{Dialect, ErrorKind};
use serde_json::{json, Value};

fn names(dialect: Dialect) -> Vec<String> {
    registry(dialect)
        .specs(ToolProfile::Full)
        .into_iter()
        .map(|s| s.name)
        .collect()
}

async fn ok(env: &crate::fs_tools::Env, dialect: Dialect, tool: &str, args: Value) -> Value {
    match env.call_in(dialect, tool, &args).await {
        Ok(value) => value,
        Err(e) => panic!("{dialect} {tool} {args}: {e:?}"),
    }
}

#[tokio::test]
async fn hearth_and_echo_speak_the_canonical_names() {
    for dialect in [Dialect::Hearth, Dialect::Echo] {
        let env = env();
        let listed = names(dialect);
        for tool in [
            "read_file",
            "write_file",
            "edit_file",
            "patch",
            "list_dir",
            "search_files",
            "read_spill",
        ] {
            assert!(listed.iter().any(|n| n == tool), "{dialect} lacks {tool}");
        }
        ok(
            &env,
            dialect,
            "write_file",
            json!({"path": "app/main.py", "content": "print('hi')\nx = 1\n"}),
        )
        .await;
        let edit = ok(
            &env,
            dialect,
            "edit_file",
            json!({"path": "app/main.py", "old_string": "'hi'", "new_string": "'hello'"}),
        )
        .await;
        assert_eq!(edit["replacements"], 1);
        let patch = "--- a/app/main.py\n+++ b/app/main.py\n@@ -1,2 +1,3 @@\n print('hello')\n-x = 1\n+x = 2\n+y = x * 2\n";
        let patched = ok(
            &env,
            dialect,
            "patch",
            json!({"file_path": "app/main.py", "patch": patch}),
        )
        .await;
        assert_eq!(patched["hunks_applied"], 1);
        let read = ok(&env, dialect, "read_file", json!({"path": "app/main.py"})).await;
        assert_eq!(read["content"], "print('hello')\nx = 2\ny = x * 2\n");
        let listing = ok(&env, dialect, "list_dir", json!({"path": "app"})).await;
        assert_eq!(listing["entries"][0]["name"], "main.py");
        let found = ok(
            &env,
            dialect,
            "search_files",
            json!({"pattern": "y = \\w+"}),
        )
        .await;
        assert_eq!(
            found["matches"][0],
            json!({"path": "app/main.py", "line_number": 3, "line": "y = x * 2"})
        );
        let globbed = ok(
            &env,
            dialect,
            "search_files",
            json!({"pattern": "*.py", "mode": "glob"}),
        )
        .await;
        assert_eq!(
            globbed["files"],
            json!([{"path": "app/main.py", "kind": "file"}])
        );
    }
}

#[tokio::test]
async fn ceecore_reads_and_writes_with_its_own_shapes() {
    let env = env();
    let listed = names(Dialect::Ceecore);
    assert!(
        listed.contains(&"read_file".to_string()) && listed.contains(&"write_file".to_string())
    );
    for absent in [
        "edit_file",
        "patch",
        "list_dir",
        "search_files",
        "file_read",
    ] {
        assert!(!listed.iter().any(|n| n == absent), "ceecore has {absent}");
    }
    let written = ok(
        &env,
        Dialect::Ceecore,
        "write_file",
        json!({"path": "reports/daily.md", "content": "# 工作日报\n", "encoding": "gbk", "append": false}),
    )
    .await;
    assert_eq!(written["created"], true);
    let read = ok(
        &env,
        Dialect::Ceecore,
        "read_file",
        json!({"path": "reports/daily.md", "encoding": "gbk", "max_bytes": 1048576}),
    )
    .await;
    assert_eq!(
        read,
        json!({"path": "reports/daily.md", "content": "# 工作日报\n", "size": 11, "encoding": "gbk"})
    );
    let error = env
        .call_in(
            Dialect::Ceecore,
            "read_file",
            &json!({"path": "reports/daily.md", "offset": 2}),
        )
        .await
        .err();
    assert_eq!(
        error.and_then(|e| e.field),
        Some("offset".to_string()),
        "offset is not a CeeCore parameter"
    );
    let escape = env
        .call_in(
            Dialect::Ceecore,
            "write_file",
            &json!({"path": "../outside/x", "content": "x"}),
        )
        .await
        .err();
    assert_eq!(escape.map(|e| e.kind), Some(ErrorKind::NotPermitted));
    env.assert_outside_untouched();
}

#[tokio::test]
async fn picobot_file_tools() {
    let env = env();
    let listed = names(Dialect::Picobot);
    for tool in [
        "file_read",
        "file_write",
        "file_edit",
        "file_search",
        "content_search",
    ] {
        assert!(listed.iter().any(|n| n == tool), "picobot lacks {tool}");
    }
    for absent in [
        "read_file",
        "write_file",
        "edit_file",
        "search_files",
        "patch",
    ] {
        assert!(!listed.iter().any(|n| n == absent), "picobot has {absent}");
    }
    let p = Dialect::Picobot;
    ok(
        &env,
        p,
        "file_write",
        json!({"path": "notes/todo.md", "content": "- buy milk\n- call bob\n"}),
    )
    .await;
    let edited = ok(
        &env,
        p,
        "file_edit",
        json!({"path": "notes/todo.md", "old_string": "milk", "new_string": "bread"}),
    )
    .await;
    assert_eq!(edited["replacements"], 1);
    assert!(edited["diff"]
        .as_str()
        .is_some_and(|d| d.contains("+- buy bread")));
    let read = ok(
        &env,
        p,
        "file_read",
        json!({"path": "notes/todo.md", "offset": 2}),
    )
    .await;
    assert_eq!(read["content"], "- call bob\n");
    let files = ok(&env, p, "file_search", json!({"pattern": "*.md"})).await;
    assert_eq!(
        files["files"],
        json!([{"path": "notes/todo.md", "kind": "file"}])
    );
    let lines = ok(
        &env,
        p,
        "content_search",
        json!({"pattern": "bob", "path": "notes"}),
    )
    .await;
    assert_eq!(
        lines["matches"],
        json!([{"path": "notes/todo.md", "line_number": 2, "line": "- call bob"}])
    );
    let no_mode = env
        .call_in(
            p,
            "file_search",
            &json!({"pattern": "*.md", "mode": "content"}),
        )
        .await
        .err();
    assert_eq!(no_mode.and_then(|e| e.field), Some("mode".to_string()));
    assert_eq!(text(&env.ws("notes/todo.md")), "- buy bread\n- call bob\n");
}

#[test]
fn dialect_tools_carry_the_canonical_facts() {
    for (dialect, name, canonical) in [
        (Dialect::Ceecore, "read_file", "read_file"),
        (Dialect::Ceecore, "write_file", "write_file"),
        (Dialect::Picobot, "file_read", "read_file"),
        (Dialect::Picobot, "file_write", "write_file"),
        (Dialect::Picobot, "file_edit", "edit_file"),
        (Dialect::Picobot, "file_search", "search_files"),
        (Dialect::Picobot, "content_search", "search_files"),
    ] {
        let facts = registry(dialect).facts(name);
        assert_eq!(
            facts.map(|f| f.name),
            Some(canonical.to_string()),
            "{dialect} {name}"
        );
    }
}
