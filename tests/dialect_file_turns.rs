//! An agent turn through each dialect's file-tool names: the scripted model server drives the
//! real engine to write, edit, patch and search files with Hearth/Echo, CeeCore and PicoBot
//! names and argument shapes; the bytes on disk and the stored results are checked, and every
//! attempt to reach outside the workspace (`..`, absolute paths, a symlinked folder) is refused
//! with a clear error while the planted canary outside stays untouched.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "dialect_file_turns/rig.rs"]
mod rig;

use hearth_tests::Reply;
use hearth_tools::Dialect;
use rig::{assert_refused, assert_unknown, ok, Rig};
use serde_json::json;

#[tokio::test]
async fn hearth_and_echo_write_edit_patch_and_search() {
    for dialect in [Dialect::Hearth, Dialect::Echo] {
        let rig = Rig::new();
        let canary = rig.canary_path();
        let (results, offered) = rig
            .turn(
                dialect,
                vec![
                    Reply::tool_call(
                        "write_file",
                        json!({"path": "src/app.txt", "content": "alpha\nbeta\ngamma\n"}),
                    ),
                    Reply::tool_call(
                        "edit_file",
                        json!({"path": "src/app.txt", "old_string": "beta", "new_string": "BETA"}),
                    ),
                    Reply::tool_call(
                        "patch",
                        json!({"file_path": "src/app.txt",
                               "patch": "@@ -2,2 +2,3 @@\n BETA\n gamma\n+delta\n"}),
                    ),
                    Reply::tool_call("search_files", json!({"pattern": "^(alpha|delta)$"}))
                        .and_tool_call("search_files", json!({"pattern": "*.txt", "mode": "glob"})),
                    Reply::tool_call(
                        "write_file",
                        json!({"path": "../../outside/pwned.txt", "content": "x"}),
                    )
                    .and_tool_call(
                        "edit_file",
                        json!({"path": canary, "old_string": "CANARY", "new_string": "pwned"}),
                    )
                    .and_tool_call(
                        "patch",
                        json!({"file_path": "link/canary.txt",
                               "patch": "@@ -1 +1 @@\n-CANARY: outside the workspace\n+pwned\n"}),
                    )
                    .and_tool_call(
                        "write_file",
                        json!({"path": "link/pwned.txt", "content": "x"}),
                    )
                    .and_tool_call(
                        "write_file",
                        json!({"path": "../config.toml", "content": "x"}),
                    )
                    .and_tool_call("search_files", json!({"pattern": "CANARY", "path": "link"}))
                    .and_tool_call("search_files", json!({"pattern": "CANARY"})),
                ],
            )
            .await;
        for name in ["write_file", "edit_file", "patch", "search_files"] {
            assert!(offered.iter().any(|o| o == name), "{dialect}: {offered:?}");
        }
        assert_eq!(
            std::fs::read(rig.ws("src/app.txt")).unwrap(),
            b"alpha\nBETA\ngamma\ndelta\n"
        );
        let written = ok(&results[0], "write_file");
        assert_eq!(written["created"], true);
        assert_eq!(
            written["diff"],
            "--- /dev/null\n+++ b/src/app.txt\n@@ -0,0 +1,3 @@\n+alpha\n+beta\n+gamma\n"
        );
        let edited = ok(&results[1], "edit_file");
        assert_eq!(edited["replacements"], 1);
        assert!(edited["diff"]
            .as_str()
            .unwrap()
            .contains("\n-beta\n+BETA\n"));
        let patched = ok(&results[2], "patch");
        assert_eq!(
            (patched["hunks_applied"].clone(), patched["created"].clone()),
            (json!(1), json!(false))
        );
        assert!(patched["diff"]
            .as_str()
            .unwrap()
            .contains("\n gamma\n+delta\n"));
        let hits = ok(&results[3], "search_files");
        assert_eq!(
            hits["matches"],
            json!([{"path": "src/app.txt", "line_number": 1, "line": "alpha"},
                   {"path": "src/app.txt", "line_number": 4, "line": "delta"}])
        );
        let files = ok(&results[4], "search_files");
        assert_eq!(
            files["files"],
            json!([{"path": "src/app.txt", "kind": "file"}])
        );

        assert_refused(&results[5], "../../outside/pwned.txt");
        assert_refused(&results[6], &canary);
        assert_refused(&results[7], "link/canary.txt");
        assert_refused(&results[8], "link/pwned.txt");
        assert_refused(&results[9], "../config.toml");
        assert_refused(&results[10], "link");
        let everywhere = ok(&results[11], "search_files");
        assert_eq!(
            everywhere["count"], 0,
            "the linked folder is not walked: {everywhere}"
        );
        assert_eq!(results.len(), 12);
        rig.assert_outside_untouched();
        assert!(!rig.home.join("config.toml").exists());
    }
}

#[tokio::test]
async fn ceecore_writes_appends_and_reads_and_has_no_edit_patch_or_search() {
    let rig = Rig::new();
    let canary = rig.canary_path();
    let (results, offered) = rig
        .turn(
            Dialect::Ceecore,
            vec![
                Reply::tool_call(
                    "write_file",
                    json!({"path": "notes/log.txt", "content": "first\n"}),
                ),
                Reply::tool_call(
                    "write_file",
                    json!({"path": "notes/log.txt", "content": "second\n", "append": true}),
                ),
                Reply::tool_call(
                    "write_file",
                    json!({"path": "notes/gbk.txt", "content": "汉字\n", "encoding": "gbk"}),
                ),
                Reply::tool_call(
                    "read_file",
                    json!({"path": "notes/gbk.txt", "encoding": "gbk"}),
                ),
                Reply::tool_call("patch", json!({"file_path": "notes/log.txt", "patch": "x"}))
                    .and_tool_call("search_files", json!({"pattern": "first"})),
                Reply::tool_call(
                    "write_file",
                    json!({"path": "../../outside/pwned.txt", "content": "x"}),
                )
                .and_tool_call(
                    "write_file",
                    json!({"path": canary, "content": "pwned", "append": true}),
                )
                .and_tool_call(
                    "write_file",
                    json!({"path": "link/canary.txt", "content": "x"}),
                )
                .and_tool_call("read_file", json!({"path": "link/canary.txt"})),
            ],
        )
        .await;
    assert!(offered.iter().any(|o| o == "write_file"));
    for absent in ["edit_file", "patch", "search_files", "file_write"] {
        assert!(
            !offered.iter().any(|o| o == absent),
            "{absent}: {offered:?}"
        );
    }
    assert_eq!(
        std::fs::read(rig.ws("notes/log.txt")).unwrap(),
        b"first\nsecond\n"
    );
    assert_eq!(
        std::fs::read(rig.ws("notes/gbk.txt")).unwrap(),
        [0xBA, 0xBA, 0xD7, 0xD6, b'\n']
    );
    assert_eq!(ok(&results[0], "write_file")["created"], true);
    let appended = ok(&results[1], "write_file");
    assert_eq!(
        appended["diff"],
        "--- a/notes/log.txt\n+++ b/notes/log.txt\n@@ -1 +1,2 @@\n first\n+second\n"
    );
    assert_eq!(ok(&results[2], "write_file")["bytes_written"], 5);
    assert_eq!(
        ok(&results[3], "read_file"),
        json!({"path": "notes/gbk.txt", "content": "汉字\n", "size": 5, "encoding": "gbk"})
    );
    assert_unknown(&results[4], "patch", "ceecore");
    assert_unknown(&results[5], "search_files", "ceecore");
    assert_refused(&results[6], "../../outside/pwned.txt");
    assert_refused(&results[7], &canary);
    assert_refused(&results[8], "link/canary.txt");
    assert_refused(&results[9], "link/canary.txt");
    assert_eq!(results.len(), 10);
    rig.assert_outside_untouched();
}

#[tokio::test]
async fn picobot_writes_edits_and_searches_and_has_no_patch() {
    let rig = Rig::new();
    let canary = rig.canary_path();
    let (results, offered) = rig
        .turn(
            Dialect::Picobot,
            vec![
                Reply::tool_call(
                    "file_write",
                    json!({"path": "docs/readme.md", "content": "# Title\nold line\n"}),
                ),
                Reply::tool_call(
                    "file_edit",
                    json!({"path": "docs/readme.md", "old_string": "old line", "new_string": "new line"}),
                ),
                Reply::tool_call("patch", json!({"file_path": "docs/readme.md", "patch": "x"})),
                Reply::tool_call("content_search", json!({"pattern": "new"}))
                    .and_tool_call("file_search", json!({"pattern": "*.md"})),
                Reply::tool_call(
                    "file_write",
                    json!({"path": "../../outside/pwned.txt", "content": "x"}),
                )
                .and_tool_call(
                    "file_edit",
                    json!({"path": canary, "old_string": "CANARY", "new_string": "pwned"}),
                )
                .and_tool_call(
                    "file_edit",
                    json!({"path": "link/canary.txt", "old_string": "CANARY", "new_string": "x"}),
                )
                .and_tool_call("content_search", json!({"pattern": "CANARY", "path": "link"}))
                .and_tool_call("file_search", json!({"pattern": "*", "path": "../../outside"})),
            ],
        )
        .await;
    for name in ["file_write", "file_edit", "content_search", "file_search"] {
        assert!(offered.iter().any(|o| o == name), "{offered:?}");
    }
    assert!(!offered.iter().any(|o| o == "write_file" || o == "patch"));
    assert_eq!(
        std::fs::read(rig.ws("docs/readme.md")).unwrap(),
        b"# Title\nnew line\n"
    );
    assert!(ok(&results[0], "file_write")["diff"]
        .as_str()
        .unwrap()
        .ends_with("+# Title\n+old line\n"));
    let edited = ok(&results[1], "file_edit");
    assert_eq!(edited["replacements"], 1);
    assert!(edited["diff"]
        .as_str()
        .unwrap()
        .contains("\n-old line\n+new line\n"));
    assert_unknown(&results[2], "patch", "picobot");
    let hits = ok(&results[3], "content_search");
    assert_eq!(
        hits["matches"],
        json!([{"path": "docs/readme.md", "line_number": 2, "line": "new line"}])
    );
    let files = ok(&results[4], "file_search");
    assert_eq!(
        files["files"],
        json!([{"path": "docs/readme.md", "kind": "file"}])
    );
    assert_refused(&results[5], "../../outside/pwned.txt");
    assert_refused(&results[6], &canary);
    assert_refused(&results[7], "link/canary.txt");
    assert_refused(&results[8], "link");
    assert_refused(&results[9], "../../outside");
    assert_eq!(results.len(), 10);
    rig.assert_outside_untouched();
}
