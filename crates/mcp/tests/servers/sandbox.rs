//! A stdio MCP server runs in the sandbox: server-filesystem, given the whole home folder, still
//! cannot read a key planted in `~/.ssh` (the sandbox denies it under the server's own rules),
//! while it reads the rest of its folder and writes its own. Run in a child process of this
//! binary with the planted `HOME` and a `HEARTH_HOME` of its own, so the other tests keep theirs.

use super::*;
use serde_json::json;

#[test]
fn a_stdio_server_cannot_read_the_home_secrets() {
    let home = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    std::fs::create_dir(home.path().join(".ssh")).unwrap();
    std::fs::write(home.path().join(".ssh/id_ed25519"), "PRIVATE-KEY-5c1e").unwrap();
    std::fs::write(home.path().join("notes.txt"), "home-notes-77a0").unwrap();
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "sandbox::planted_home_server", "--ignored"])
        .env("HOME", home.path())
        .env("HEARTH_HOME", data.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && text.contains("1 passed"),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "run by a_stdio_server_cannot_read_the_home_secrets with a planted HOME"]
async fn planted_home_server() {
    let home = std::env::var("HOME").unwrap();
    let server = McpServerSettings::stdio(
        "fs",
        "node",
        &[super::registry_servers::filesystem_js(), home.clone()],
    );
    let rig = Rig::start(&[server]).await;
    assert_eq!(rig.state("fs"), State::Ready, "{:?}", rig.status("fs"));
    let read = rig
        .call(
            "mcp__fs__read_text_file",
            json!({"path": format!("{home}/notes.txt")}),
        )
        .await
        .unwrap();
    assert!(text(&read).contains("home-notes-77a0"), "{read}");
    let refused = rig
        .call(
            "mcp__fs__read_text_file",
            json!({"path": format!("{home}/.ssh/id_ed25519")}),
        )
        .await
        .unwrap_err();
    assert!(refused.message.contains("EACCES"), "{}", refused.message);
    assert!(!refused.message.contains("PRIVATE-KEY"));
}
