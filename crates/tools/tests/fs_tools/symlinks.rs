//! Symbolic links: links and chains that resolve outside are refused (reads, writes through
//! linked folders, dangling links), links that stay inside are followed, loops end. Hard links:
//! appending to a file with another name (perhaps outside) is refused; replacing it is not.
#![cfg(unix)]

use crate::fs_tools::{assert_refused, env, mkdir, put, symlink, text, Env};
use hearth_tools::ErrorKind;
use serde_json::json;

fn links(env: &Env) {
    mkdir(&env.ws("sub"));
    put(&env.ws("sub/inner.txt"), b"inner");
    let outside = env.outside();
    symlink(&outside, &env.ws("abs_out")); // absolute → outside folder
    symlink("../outside", &env.ws("rel_out")); // relative → outside folder
    symlink(outside.join("canary.txt"), &env.ws("canary_link"));
    symlink("/etc/passwd", &env.ws("passwd"));
    symlink("/proc/self/root", &env.ws("proc_root"));
    symlink("/proc/self/environ", &env.ws("environ"));
    symlink("c2", &env.ws("c1")); // chain: c1 → c2 → c3 → sub/../../outside/canary.txt
    symlink("c3", &env.ws("c2"));
    symlink("sub/../../outside/canary.txt", &env.ws("c3"));
    symlink("sub/deeper_out", &env.ws("via_sub"));
    symlink("../../outside", &env.ws("sub/deeper_out"));
    symlink(outside.join("not_yet.txt"), &env.ws("dangling_out"));
    symlink("loop_b", &env.ws("loop_a"));
    symlink("loop_a", &env.ws("loop_b"));
}

#[tokio::test]
async fn links_leading_outside_are_refused() {
    let env = env();
    links(&env);
    let paths = [
        "abs_out/canary.txt",
        "rel_out/canary.txt",
        "canary_link",
        "passwd",
        "proc_root/etc/passwd",
        "environ",
        "c1",
        "via_sub/canary.txt",
        "sub/deeper_out/canary.txt",
        "abs_out",
        "rel_out/../outside/canary.txt",
    ];
    for path in paths {
        for (tool, args) in [
            ("read_file", json!({"path": path})),
            ("write_file", json!({"path": path, "content": "pwned"})),
            (
                "write_file",
                json!({"path": path, "content": "pwned", "append": true}),
            ),
            (
                "edit_file",
                json!({"path": path, "old_string": "CANARY", "new_string": "x"}),
            ),
            ("list_dir", json!({"path": path})),
        ] {
            let error = env.err(tool, args).await;
            assert_refused(&error, ErrorKind::NotPermitted, path);
            let root = env.root.display().to_string();
            assert!(
                !error.message.contains(&root),
                "{tool} {path} leaks: {error:?}"
            );
        }
    }
    for path in [
        "abs_out/new.txt",
        "rel_out/dir/new.txt",
        "dangling_out",
        "via_sub/x",
    ] {
        let error = env
            .err("write_file", json!({"path": path, "content": "pwned"}))
            .await;
        assert_refused(&error, ErrorKind::NotPermitted, path);
    }
    let loops = env.err("read_file", json!({"path": "loop_a"})).await;
    assert_refused(&loops, ErrorKind::NotPermitted, "loop_a");
    assert!(
        loops.message.contains("too many symbolic links"),
        "{loops:?}"
    );
    env.assert_outside_untouched();
}

#[tokio::test]
async fn search_and_listing_do_not_follow_links_out() {
    let env = env();
    links(&env);
    put(&env.ws("sub/found.txt"), b"CANARY: a copy inside\n");
    let search = env.ok("search_files", json!({"pattern": "CANARY"})).await;
    assert_eq!(
        search["matches"],
        json!([{"path": "sub/found.txt", "line_number": 1, "line": "CANARY: a copy inside"}])
    );
    let glob = env
        .ok(
            "search_files",
            json!({"pattern": "canary*", "mode": "glob"}),
        )
        .await;
    assert_eq!(
        glob["files"],
        json!([{"path": "canary_link", "kind": "symlink"}])
    );
    let listing = env.ok("list_dir", json!({"path": "."})).await;
    let kinds: Vec<&str> = listing["entries"]
        .as_array()
        .map(|e| {
            e.iter()
                .filter(|x| x["name"] == "abs_out")
                .filter_map(|x| x["kind"].as_str())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(kinds, ["symlink"]);
    assert!(!listing
        .to_string()
        .contains(&env.root.display().to_string()));
}

#[tokio::test]
async fn links_inside_the_workspace_are_followed() {
    let env = env();
    mkdir(&env.ws("real/dir"));
    put(&env.ws("real/dir/file.txt"), b"real");
    symlink("real/dir", &env.ws("alias"));
    symlink(env.ws("real/dir/file.txt"), &env.ws("abs_alias"));
    symlink("../real/./dir/../dir/file.txt", &env.ws("real/up_alias"));
    symlink("new_target.txt", &env.ws("dangling_in"));
    for path in ["alias/file.txt", "abs_alias", "real/up_alias"] {
        let read = env.ok("read_file", json!({"path": path})).await;
        assert_eq!(read["content"], "real", "{path}");
    }
    env.ok(
        "write_file",
        json!({"path": "alias/file.txt", "content": "via alias"}),
    )
    .await;
    assert_eq!(text(&env.ws("real/dir/file.txt")), "via alias");
    assert!(env.ws("alias").is_symlink(), "the link itself stays a link");
    env.ok(
        "write_file",
        json!({"path": "dangling_in", "content": "made"}),
    )
    .await;
    assert_eq!(text(&env.ws("new_target.txt")), "made");
    let listing = env.ok("list_dir", json!({"path": "alias"})).await;
    assert_eq!(listing["entries"][0]["name"], "file.txt");
}

#[tokio::test]
async fn appending_through_a_hard_link_to_an_outside_file_is_refused() {
    let env = env();
    let canary = env.outside().join("canary.txt");
    if let Err(e) = std::fs::hard_link(&canary, env.ws("linked.txt")) {
        panic!("hard link: {e}");
    }
    let error = env
        .err(
            "write_file",
            json!({"path": "linked.txt", "content": "pwned", "append": true}),
        )
        .await;
    assert_refused(&error, ErrorKind::NotPermitted, "linked.txt");
    assert!(error.message.contains("2 hard links"), "{error:?}");
    env.assert_outside_untouched();
    // Replacing makes a new file under the workspace name; the outside name keeps its content.
    env.ok(
        "write_file",
        json!({"path": "linked.txt", "content": "mine"}),
    )
    .await;
    assert_eq!(text(&env.ws("linked.txt")), "mine");
    env.assert_outside_untouched();
    // A file with one name appends as before.
    env.ok(
        "write_file",
        json!({"path": "linked.txt", "content": " too", "append": true}),
    )
    .await;
    assert_eq!(text(&env.ws("linked.txt")), "mine too");
}
