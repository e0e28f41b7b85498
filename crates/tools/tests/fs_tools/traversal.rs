//! A generated traversal corpus: escapes in many spellings are refused by every tool without
//! leaking paths; encoded and look-alike dots are plain names inside. The canary stays intact.

use crate::fs_tools::{env, mkdir, put, Env};
use hearth_tools::{ErrorKind, ToolError};
use serde_json::{json, Value};

/// Relative escapes: existing prefixes, several ways of going up, targets outside.
fn relative_escapes() -> Vec<String> {
    let prefixes = ["", "./", "sub/", "sub/deeper/../", ".//sub/./", "sub/../"];
    let ups = ["..", "../..", "../../..", "..//..", "./..", "../././.."];
    let tails = [
        "",
        "/",
        "/outside/canary.txt",
        "/outside/new.txt",
        "/etc/passwd",
        "/ws/../outside",
    ];
    let mut corpus = Vec::new();
    for prefix in prefixes {
        for up in ups {
            for tail in tails {
                let path = format!("{prefix}{up}{tail}");
                if climbs_out(&path) {
                    corpus.push(path);
                }
            }
        }
    }
    for depth in 1..=8 {
        corpus.push(format!(
            "sub/deeper/{}outside/canary.txt",
            "../".repeat(depth + 2)
        ));
    }
    corpus
}

/// Whether `path`, read lexically, goes above its starting folder (`sub/..` does not).
fn climbs_out(path: &str) -> bool {
    let mut depth = 0i32;
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => depth -= 1,
            _ => depth += 1,
        }
        if depth < 0 {
            return true;
        }
    }
    false
}

/// Absolute paths outside the workspace (or escaping it after its prefix).
fn absolute_escapes(env: &Env) -> Vec<String> {
    let root = env.root.display().to_string();
    let mut corpus: Vec<String> = [
        "/etc/passwd",
        "/etc/shadow",
        "/proc/self/environ",
        "/proc/self/root/etc/passwd",
        "/proc/1/cmdline",
        "/sys/kernel/hostname",
        "/dev/zero",
        "/dev/null",
        "/",
        "/tmp",
        "~",
        "~/.bashrc",
        "~/../../etc/passwd",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    corpus.push(format!("{root}/outside/canary.txt"));
    corpus.push(format!("{root}/outside"));
    corpus.push(format!("{root}/ws/../outside/canary.txt"));
    corpus.push(format!("{root}/ws/sub/../../outside/new.txt"));
    corpus.push(format!("{root}/ws-evil/file.txt"));
    corpus.push(format!("{root}/w/../ws/file.txt"));
    corpus.push(root);
    corpus
}

/// Every file tool called on `path`.
async fn every_tool(env: &Env, path: &str) -> Vec<(String, Result<Value, ToolError>)> {
    let calls = [
        ("read_file", json!({"path": path})),
        ("write_file", json!({"path": path, "content": "pwned"})),
        (
            "write_file",
            json!({"path": path, "content": "pwned", "append": true}),
        ),
        (
            "edit_file",
            json!({"path": path, "old_string": "CANARY", "new_string": "pwned"}),
        ),
        (
            "patch",
            json!({"file_path": path, "patch": "@@ -1 +1 @@\n-x\n+pwned\n"}),
        ),
        ("list_dir", json!({"path": path})),
        ("search_files", json!({"pattern": "CANARY", "path": path})),
        (
            "search_files",
            json!({"pattern": "*", "mode": "glob", "path": path}),
        ),
    ];
    let mut out = Vec::new();
    for (tool, args) in calls {
        out.push((format!("{tool} {args}"), env.call(tool, &args).await));
    }
    out
}

fn setup() -> Env {
    let env = env();
    mkdir(&env.ws("sub/deeper"));
    put(&env.ws("file.txt"), b"inside");
    env
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn escapes_are_refused_by_every_tool() {
    let env = setup();
    let root = env.root.display().to_string();
    let mut corpus = relative_escapes();
    corpus.extend(absolute_escapes(&env));
    let mut checked = 0;
    for path in &corpus {
        for (call, result) in every_tool(&env, path).await {
            let error = match result {
                Ok(value) => panic!("{call} escaped: {value}"),
                Err(error) => error,
            };
            assert_eq!(error.kind, ErrorKind::NotPermitted, "{call}: {error:?}");
            assert!(
                error.message.contains(&format!("`{path}`")),
                "{call}: {error:?}"
            );
            if !path.contains(&root) {
                assert!(
                    !error.message.contains(&root),
                    "{call} leaks a path: {error:?}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
    env.assert_outside_untouched();
    assert_eq!(crate::fs_tools::entries(&env.ws("")), ["file.txt", "sub"]);
}

#[tokio::test]
async fn absolute_paths_inside_the_workspace_work() {
    let env = setup();
    let inside = env.ws("sub/new.txt").display().to_string();
    env.ok("write_file", json!({"path": inside, "content": "ok"}))
        .await;
    let back = env.ok("read_file", json!({"path": inside})).await;
    assert_eq!(back["content"], "ok");
    let round_about = format!("{}/ws/sub/deeper/../new.txt", env.root.display());
    let again = env.ok("read_file", json!({"path": round_about})).await;
    assert_eq!(again["content"], "ok");
}

/// Percent-encodings, backslashes and Unicode look-alikes of `..` are ordinary names here.
#[cfg(unix)]
#[tokio::test]
async fn encoded_and_look_alike_dots_are_plain_names_inside() {
    let env = setup();
    let corpus = [
        "%2e%2e/outside/canary.txt",
        "%2e%2e%2foutside%2fcanary.txt",
        "..%2foutside%2fcanary.txt",
        "%252e%252e/outside/canary.txt",
        "..\\outside\\canary.txt",
        "..%5c..%5coutside",
        "\u{FF0E}\u{FF0E}/outside/canary.txt",
        "\u{2025}/outside/canary.txt",
        "\u{2024}\u{2024}/outside/canary.txt",
        ".\u{200B}./outside/canary.txt",
        "..\u{0338}/outside",
        ". ./outside/canary.txt",
        ".. /outside/canary.txt",
        ".../outside/canary.txt",
        "..../canary.txt",
    ];
    for path in corpus {
        let missing = env.err("read_file", json!({"path": path})).await;
        assert_eq!(missing.kind, ErrorKind::NotFound, "{path}: {missing:?}");
        let written = env
            .ok("write_file", json!({"path": path, "content": path}))
            .await;
        assert_eq!(written["created"], true, "{path}");
        assert!(
            env.ws(path).is_file(),
            "{path} was not written inside the workspace"
        );
        let back = env.ok("read_file", json!({"path": path})).await;
        assert_eq!(back["content"], path);
    }
    env.assert_outside_untouched();
}
