//! write_file: parents created, atomic replacement (never a half-written file, permissions
//! kept, no temp files left), append, the 10 MiB cap and malformed arguments.

use crate::fs_tools::{entries, env, put, read, text};
use hearth_tools::ErrorKind;
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

const MIB: usize = 1024 * 1024;

#[tokio::test]
async fn creates_parents_then_replaces() {
    let env = env();
    let first = env
        .ok(
            "write_file",
            json!({"path": "a/b/c/notes.md", "content": "# hi\n"}),
        )
        .await;
    assert_eq!(
        first,
        json!({
            "path": "a/b/c/notes.md",
            "bytes_written": 5,
            "created": true,
            "diff": "--- /dev/null\n+++ b/a/b/c/notes.md\n@@ -0,0 +1 @@\n+# hi\n",
        })
    );
    assert_eq!(text(&env.ws("a/b/c/notes.md")), "# hi\n");
    let second = env
        .ok(
            "write_file",
            json!({"path": "a/b/c/notes.md", "content": "replaced"}),
        )
        .await;
    assert_eq!(second["created"], false);
    assert_eq!(text(&env.ws("a/b/c/notes.md")), "replaced");
    assert_eq!(entries(&env.ws("a/b/c")), ["notes.md"], "no temp file left");
    let empty = env
        .ok("write_file", json!({"path": "empty", "content": ""}))
        .await;
    assert_eq!(empty["bytes_written"], 0);
    assert_eq!(read(&env.ws("empty")), b"");
}

#[cfg(unix)]
#[tokio::test]
async fn replacing_keeps_permissions_and_swaps_the_inode() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let env = env();
    let path = env.ws("script.sh");
    put(&path, b"old");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o750)).unwrap();
    let before = std::fs::metadata(&path).unwrap().ino();
    env.ok("write_file", json!({"path": "script.sh", "content": "new"}))
        .await;
    let meta = std::fs::metadata(&path).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o750);
    assert_ne!(
        meta.ino(),
        before,
        "replaced by rename, not rewritten in place"
    );
}

#[tokio::test]
async fn appends_and_creates_when_missing() {
    let env = env();
    for (part, created) in [("one\n", true), ("two\n", false)] {
        let result = env
            .ok(
                "write_file",
                json!({"path": "logs/run.log", "content": part, "append": true}),
            )
            .await;
        assert_eq!(result["created"], created);
    }
    assert_eq!(text(&env.ws("logs/run.log")), "one\ntwo\n");
}

#[tokio::test]
async fn the_ten_mebibyte_cap() {
    let env = env();
    let under = "a".repeat(10 * MIB - 1);
    let ok = env
        .ok("write_file", json!({"path": "under.txt", "content": under}))
        .await;
    assert_eq!(ok["bytes_written"], 10 * MIB - 1);
    let exact = "b".repeat(10 * MIB);
    env.ok("write_file", json!({"path": "exact.txt", "content": exact}))
        .await;
    assert_eq!(
        std::fs::metadata(env.ws("exact.txt")).map(|m| m.len()).ok(),
        Some(10 * MIB as u64)
    );
    let over = "c".repeat(10 * MIB + 1);
    let error = env
        .err("write_file", json!({"path": "over.txt", "content": over}))
        .await;
    assert_eq!(
        (error.kind, error.field.as_deref()),
        (ErrorKind::TooLarge, Some("content"))
    );
    assert!(!env.ws("over.txt").exists());
    // The cap is on encoded bytes: 5 Mi + 1 characters are 10 MiB + 2 bytes in UTF-16.
    let wide = "d".repeat(5 * MIB);
    let error = env
        .err(
            "write_file",
            json!({"path": "wide.txt", "content": wide, "encoding": "utf-16"}),
        )
        .await;
    assert_eq!(error.kind, ErrorKind::TooLarge);
}

#[tokio::test]
async fn folders_are_not_files() {
    let env = env();
    crate::fs_tools::mkdir(&env.ws("dir"));
    for path in ["dir", ".", "dir/.."] {
        let error = env
            .err("write_file", json!({"path": path, "content": "x"}))
            .await;
        assert_eq!(error.kind, ErrorKind::InvalidArguments, "{path}: {error:?}");
    }
    put(&env.ws("file"), b"x");
    let error = env
        .err("write_file", json!({"path": "file/child", "content": "x"}))
        .await;
    assert_eq!(error.kind, ErrorKind::NotFound, "{error:?}");
}

#[tokio::test]
async fn malformed_arguments_name_the_field() {
    let env = env();
    let cases = [
        (json!({"content": "x"}), "path"),
        (json!({"path": "a"}), "content"),
        (json!({"path": "a", "content": 5}), "content"),
        (json!({"path": "a", "content": null}), "content"),
        (json!({"path": ["a"], "content": "x"}), "path"),
        (
            json!({"path": "a", "content": "x", "append": "yes"}),
            "append",
        ),
        (
            json!({"path": "a", "content": "x", "encoding": "utf8"}),
            "encoding",
        ),
        (json!({"path": "a", "content": "x", "mode": "w"}), "mode"),
    ];
    for (args, field) in cases {
        let error = env.err("write_file", args.clone()).await;
        assert_eq!(
            (error.kind, error.field.as_deref()),
            (ErrorKind::InvalidArguments, Some(field)),
            "{args}"
        );
    }
    assert!(entries(&env.ws("")).is_empty());
}

/// Readers racing a series of replacements see one whole version or the other, never a mix.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readers_never_see_a_half_written_file() {
    let env = env();
    let (a, b) = ("a".repeat(MIB), "b".repeat(MIB));
    put(&env.ws("big.txt"), a.as_bytes());
    let stop = Arc::new(AtomicBool::new(false));
    let path = env.ws("big.txt");
    let reader = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            let mut reads = 0;
            while !stop.load(Ordering::Relaxed) {
                let bytes = std::fs::read(&path).unwrap_or_default();
                let first = bytes.first().copied();
                assert_eq!(bytes.len(), MIB, "partial file seen");
                assert!(bytes.iter().all(|c| Some(*c) == first), "mixed file seen");
                reads += 1;
            }
            reads
        })
    };
    for round in 0..20 {
        let content = if round % 2 == 0 { &b } else { &a };
        env.ok("write_file", json!({"path": "big.txt", "content": content}))
            .await;
    }
    stop.store(true, Ordering::Relaxed);
    let reads = reader.join().unwrap();
    assert!(reads > 0);
    assert_eq!(entries(&env.ws("")), ["big.txt"]);
}
