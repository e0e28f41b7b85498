//! Protected paths: git hooks and config, shell start-up files, .mcp.json and .hearth/ may be
//! read but not written (also through links), while .git/objects, refs and index stay writable.

use crate::fs_tools::{assert_refused, env, put, text};
use hearth_tools::ErrorKind;
use serde_json::json;

#[tokio::test]
async fn protected_paths_are_readable_but_not_writable() {
    let env = env();
    put(&env.ws(".git/config"), b"[core]\n");
    put(&env.ws(".git/hooks/pre-commit.sample"), b"#!/bin/sh\n");
    put(&env.ws(".bashrc"), b"export A=1\n");
    put(&env.ws(".mcp.json"), b"{}");
    let protected = [
        ".git/config",
        ".git/hooks/pre-commit",
        ".git/hooks/pre-commit.sample",
        ".git/hooks/nested/new-dir/hook",
        "./.git/./hooks/post-merge",
        "sub/../.git/config",
        "vendor/lib/.git/hooks/post-checkout",
        ".GIT/HOOKS/pre-push",
        ".bashrc",
        ".zshrc",
        ".profile",
        ".bash_profile",
        ".zprofile",
        "home/user/.bashrc",
        ".mcp.json",
        ".hearth/config.toml",
        ".hearth/skills/evil/SKILL.md",
        ".Hearth/x",
    ];
    crate::fs_tools::mkdir(&env.ws("sub"));
    for path in protected {
        for (tool, args) in [
            ("write_file", json!({"path": path, "content": "pwned"})),
            (
                "write_file",
                json!({"path": path, "content": "pwned", "append": true}),
            ),
            (
                "edit_file",
                json!({"path": path, "old_string": "[core]", "new_string": "pwned"}),
            ),
            (
                "patch",
                json!({"file_path": path, "patch": "@@ -0,0 +1 @@\n+pwned\n"}),
            ),
        ] {
            let error = env.err(tool, args).await;
            assert_refused(&error, ErrorKind::NotPermitted, path);
            assert!(error.message.contains("protected"), "{error:?}");
        }
    }
    assert!(
        !env.ws(".hearth").exists(),
        "no folder created for a refused write"
    );
    assert!(!env.ws(".git/hooks/nested").exists());
    assert!(!env.ws("vendor").exists());
    assert_eq!(text(&env.ws(".git/config")), "[core]\n");
    assert_eq!(text(&env.ws(".bashrc")), "export A=1\n");
    let read = env.ok("read_file", json!({"path": ".git/config"})).await;
    assert_eq!(read["content"], "[core]\n");
}

#[tokio::test]
async fn git_data_stays_writable() {
    let env = env();
    for path in [
        ".git/objects/ab/cdef0123",
        ".git/refs/heads/main",
        ".git/index",
        ".git/HEAD",
        "src/.gitignore",
        "hooks/x",
        "config",
    ] {
        let result = env
            .ok("write_file", json!({"path": path, "content": "data"}))
            .await;
        assert_eq!(result["created"], true, "{path}");
    }
}

#[cfg(unix)]
#[tokio::test]
async fn links_into_protected_places_are_refused() {
    let env = env();
    put(&env.ws(".git/hooks/pre-commit"), b"#!/bin/sh\n");
    crate::fs_tools::symlink(".git/hooks", &env.ws("hooks_link"));
    crate::fs_tools::symlink(".git/hooks/pre-commit", &env.ws("innocent.txt"));
    crate::fs_tools::symlink(".", &env.ws("self"));
    for path in [
        "hooks_link/post-merge",
        "innocent.txt",
        "self/.bashrc",
        "self/self/.git/config",
    ] {
        let error = env
            .err("write_file", json!({"path": path, "content": "pwned"}))
            .await;
        assert_refused(&error, ErrorKind::NotPermitted, path);
    }
    assert_eq!(text(&env.ws(".git/hooks/pre-commit")), "#!/bin/sh\n");
    assert!(!env.ws(".git/hooks/post-merge").exists());
}
