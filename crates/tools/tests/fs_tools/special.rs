//! Special files: FIFOs, sockets and device nodes inside the workspace are refused without
//! blocking or opening them; a workspace inside /proc is refused.
#![cfg(unix)]

use crate::fs_tools::{assert_refused, env, put};
use hearth_tools::{Dialect, ErrorKind, ToolContext};
use serde_json::json;
use std::process::Command;
use std::time::Duration;

fn run(program: &str, args: &[&str]) {
    match Command::new(program).args(args).status() {
        Ok(status) if status.success() => {}
        other => panic!("{program} {args:?}: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifos_sockets_and_devices_are_refused_without_blocking() {
    let env = env();
    let fifo = env.ws("pipe");
    run("mkfifo", &[&fifo.display().to_string()]);
    let _socket = std::os::unix::net::UnixListener::bind(env.ws("sock")).unwrap();
    // A character device (like /dev/zero) planted in the workspace; needs CAP_MKNOD (root).
    run(
        "mknod",
        &[&env.ws("zero").display().to_string(), "c", "1", "5"],
    );
    put(&env.ws("fifo_dir/readme.txt"), b"FIFO next door\n");
    run("mkfifo", &[&env.ws("fifo_dir/pipe").display().to_string()]);
    for (path, kind) in [("pipe", "FIFO"), ("sock", "socket"), ("zero", "device")] {
        for (tool, args) in [
            ("read_file", json!({"path": path})),
            ("write_file", json!({"path": path, "content": "x"})),
            (
                "write_file",
                json!({"path": path, "content": "x", "append": true}),
            ),
            (
                "edit_file",
                json!({"path": path, "old_string": "a", "new_string": "b"}),
            ),
            (
                "patch",
                json!({"file_path": path, "patch": "@@ -1 +1 @@\n-a\n+b\n"}),
            ),
            ("search_files", json!({"pattern": "a", "path": path})),
        ] {
            let call = env.call(tool, &args);
            let result = tokio::time::timeout(Duration::from_secs(10), call).await;
            let error = match result {
                Ok(Err(error)) => error,
                Ok(Ok(value)) => panic!("{tool} on {path} succeeded: {value}"),
                Err(_) => panic!("{tool} on {path} blocked"),
            };
            assert_refused(&error, ErrorKind::NotPermitted, path);
            assert!(error.message.contains(kind), "{tool} {path}: {error:?}");
        }
    }
    // Searching and listing a folder with a FIFO in it neither blocks nor fails.
    let args = json!({"pattern": "FIFO|x", "path": "fifo_dir"});
    let search =
        tokio::time::timeout(Duration::from_secs(10), env.call("search_files", &args)).await;
    let found = search.ok().and_then(Result::ok).unwrap_or_default();
    assert_eq!(found["matches"][0]["path"], "fifo_dir/readme.txt");
    assert_eq!(found["count"], 1);
    let listing = env.ok("list_dir", json!({"path": "."})).await;
    let other: Vec<&str> = listing["entries"]
        .as_array()
        .map(|e| {
            e.iter()
                .filter(|x| x["kind"] == "other")
                .filter_map(|x| x["name"].as_str())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(other, ["pipe", "sock", "zero"]);
    assert!(
        fifo.exists() && env.ws("zero").exists(),
        "special files left in place"
    );
}

#[tokio::test]
async fn a_workspace_inside_proc_or_dev_is_refused() {
    for workspace in ["/proc/self", "/proc/self/cwd", "/dev", "/sys/kernel"] {
        let ctx = ToolContext::new(workspace.into(), std::env::temp_dir(), "desktop:proc");
        let result = crate::fs_tools::registry(Dialect::Hearth)
            .dispatch("read_file", r#"{"path": "environ"}"#, &ctx)
            .await;
        let error = result.err();
        let refused = error
            .as_ref()
            .is_some_and(|e| e.kind == ErrorKind::NotPermitted);
        // /proc/self/cwd is the test's working folder (the crate), which is a fine workspace.
        if workspace == "/proc/self/cwd" {
            assert_eq!(
                error.map(|e| e.kind),
                Some(ErrorKind::NotFound),
                "{workspace}"
            );
        } else {
            assert!(refused, "{workspace}: {error:?}");
        }
    }
}
