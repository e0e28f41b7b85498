//! search_files: regex content search (gitignore, hidden, binary, long lines, limits), glob
//! names, sub-folders under an ignoring parent, and invalid patterns.

use crate::fs_tools::{env, put};
use hearth_tools::ErrorKind;
use serde_json::{json, Value};

fn paths(result: &Value, key: &str) -> Vec<String> {
    result[key]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m["path"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

fn tree(env: &crate::fs_tools::Env) {
    put(&env.ws(".gitignore"), b"target/\n*.log\n");
    put(
        &env.ws("src/main.rs"),
        b"fn main() {\n    let needle = 1;\n}\n",
    );
    put(
        &env.ws("src/deep/util.rs"),
        b"// needle in a comment\npub fn util() {}\n",
    );
    put(&env.ws("target/debug/out.rs"), b"needle in build output\n");
    put(&env.ws("crates/a/target/gen.rs"), b"needle generated\n");
    put(&env.ws("crates/a/lib.rs"), b"needle lib\n");
    put(&env.ws("run.log"), b"needle in a log\n");
    put(&env.ws(".secret/key.rs"), b"needle hidden\n");
    put(&env.ws("blob.bin"), b"needle\x00\x01\x02 binary\n");
}

#[tokio::test]
async fn content_search_honours_gitignore_hidden_and_binary() {
    let env = env();
    tree(&env);
    let result = env.ok("search_files", json!({"pattern": "needle"})).await;
    assert_eq!(
        paths(&result, "matches"),
        ["crates/a/lib.rs", "src/deep/util.rs", "src/main.rs"]
    );
    assert_eq!(
        result["matches"][2],
        json!({"path": "src/main.rs", "line_number": 2, "line": "    let needle = 1;"})
    );
    assert_eq!(
        (result["count"].as_u64(), result["truncated"].as_bool()),
        (Some(3), Some(false))
    );
    // A sub-folder still obeys the workspace's .gitignore (crates/a/target is ignored).
    let sub = env
        .ok(
            "search_files",
            json!({"pattern": "needle", "path": "crates"}),
        )
        .await;
    assert_eq!(paths(&sub, "matches"), ["crates/a/lib.rs"]);
    // An ignored folder asked for by name is searched.
    let asked = env
        .ok(
            "search_files",
            json!({"pattern": "needle", "path": "target"}),
        )
        .await;
    assert_eq!(paths(&asked, "matches"), ["target/debug/out.rs"]);
    let one_file = env
        .ok(
            "search_files",
            json!({"pattern": "fn \\w+", "path": "src/main.rs"}),
        )
        .await;
    assert_eq!(one_file["matches"][0]["line_number"], 1);
}

#[tokio::test]
async fn limits_and_long_lines() {
    let env = env();
    let many: String = (0..200).map(|n| format!("hit {n}\n")).collect();
    put(&env.ws("many.txt"), many.as_bytes());
    let capped = env
        .ok("search_files", json!({"pattern": "^hit", "max_results": 7}))
        .await;
    assert_eq!(
        (capped["count"].as_u64(), capped["truncated"].as_bool()),
        (Some(7), Some(true))
    );
    assert!(capped["note"]
        .as_str()
        .is_some_and(|n| n.contains("max_results")));
    let default = env.ok("search_files", json!({"pattern": "^hit"})).await;
    assert_eq!(default["count"], 50);
    let huge = env
        .ok(
            "search_files",
            json!({"pattern": "^hit", "max_results": 1_000_000_000u64}),
        )
        .await;
    assert_eq!(
        (huge["count"].as_u64(), huge["truncated"].as_bool()),
        (Some(200), Some(false))
    );
    put(
        &env.ws("long.txt"),
        format!("start {} end\n", "x".repeat(5000)).as_bytes(),
    );
    let long = env.ok("search_files", json!({"pattern": "start"})).await;
    let line = long["matches"][0]["line"].as_str().unwrap_or_default();
    assert_eq!(line.chars().count(), 301);
    assert!(line.ends_with('…'));
}

#[tokio::test]
async fn glob_mode_matches_names_or_paths() {
    let env = env();
    tree(&env);
    let names = env
        .ok("search_files", json!({"pattern": "*.rs", "mode": "glob"}))
        .await;
    assert_eq!(
        paths(&names, "files"),
        ["crates/a/lib.rs", "src/deep/util.rs", "src/main.rs"]
    );
    assert_eq!(names["files"][0]["kind"], "file");
    let nested = env
        .ok(
            "search_files",
            json!({"pattern": "src/**/*.rs", "mode": "glob"}),
        )
        .await;
    assert_eq!(paths(&nested, "files"), ["src/deep/util.rs", "src/main.rs"]);
    let shallow = env
        .ok(
            "search_files",
            json!({"pattern": "src/*.rs", "mode": "glob"}),
        )
        .await;
    assert_eq!(paths(&shallow, "files"), ["src/main.rs"]);
    let dirs = env
        .ok("search_files", json!({"pattern": "deep", "mode": "glob"}))
        .await;
    assert_eq!(dirs["files"], json!([{"path": "src/deep", "kind": "dir"}]));
}

#[tokio::test]
async fn invalid_patterns_and_arguments() {
    let env = env();
    put(&env.ws("a.txt"), b"a");
    let cases = [
        (
            json!({"pattern": "(unclosed"}),
            "pattern",
            "not a valid regular expression",
        ),
        (
            json!({"pattern": "a{99999999}"}),
            "pattern",
            "not a valid regular expression",
        ),
        (
            json!({"pattern": "a[", "mode": "glob"}),
            "pattern",
            "not a valid glob",
        ),
        (json!({"pattern": ""}), "pattern", ""),
        (json!({}), "pattern", ""),
        (json!({"pattern": 3}), "pattern", ""),
        (json!({"pattern": "a", "mode": "fuzzy"}), "mode", ""),
        (json!({"pattern": "a", "max_results": 0}), "max_results", ""),
        (
            json!({"pattern": "a", "max_results": -5}),
            "max_results",
            "",
        ),
        (json!({"pattern": "a", "path": ""}), "path", ""),
    ];
    for (args, field, message) in cases {
        let error = env.err("search_files", args.clone()).await;
        assert_eq!(
            (error.kind, error.field.as_deref()),
            (ErrorKind::InvalidArguments, Some(field)),
            "{args}"
        );
        assert!(error.message.contains(message), "{args}: {error:?}");
    }
    let missing = env
        .err("search_files", json!({"pattern": "a", "path": "nope"}))
        .await;
    crate::fs_tools::assert_refused(&missing, ErrorKind::NotFound, "nope");
}
