//! User rules in `config.toml` through the real `hearth-cli tools call`: a deny rule by tool name
//! or capability refuses the call as `not_permitted` naming the rule and changes nothing; a rule
//! scoped to another workspace leaves calls elsewhere alone; a malformed rule stops the CLI with
//! a one-line error naming it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Output;

use serde_json::Value;
use tokio::process::Command;

async fn hearth(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hearth-cli"))
        .env("HEARTH_HOME", home)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .unwrap()
}

fn configure(home: &Path, rules: &str) {
    std::fs::create_dir_all(home.join("workspace")).unwrap();
    std::fs::write(home.join("config.toml"), rules).unwrap();
}

const SUM: &str = r#"{"action":"evaluate","expression":"6*7"}"#;

#[tokio::test(flavor = "multi_thread")]
async fn deny_rules_refuse_by_name_and_capability_and_name_the_rule() {
    let home = tempfile::tempdir().unwrap();
    configure(
        home.path(),
        "[[rules]]\neffect = \"deny\"\ntool = \"calculator\"\n\n\
         [[rules]]\neffect = \"deny\"\ncapability = \"fs.write\"\n",
    );
    let out = hearth(home.path(), &["tools", "call", "calculator", SUM]).await;
    assert_eq!(out.status.code(), Some(1));
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["error"]["kind"], "not_permitted", "{value}");
    let message = value["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("user rule #1 (deny tool calculator)"),
        "{message}"
    );

    let write = r#"{"path":"note.txt","content":"hello"}"#;
    let out = hearth(home.path(), &["tools", "call", "write_file", write]).await;
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["error"]["kind"], "not_permitted", "{value}");
    assert!(value.to_string().contains("user rule #2"), "{value}");
    assert!(
        !home.path().join("workspace/note.txt").exists(),
        "nothing written"
    );

    // Reading is not `fs.write`: still allowed.
    std::fs::write(home.path().join("workspace/seen.txt"), "visible").unwrap();
    let read = r#"{"path":"seen.txt"}"#;
    let out = hearth(home.path(), &["tools", "call", "read_file", read]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rule_scoped_to_another_workspace_does_not_apply() {
    let home = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let rules = format!(
        "[[rules]]\neffect = \"deny\"\ntool = \"calculator\"\nworkspace = \"{}\"\n",
        elsewhere.path().display()
    );
    configure(home.path(), &rules);
    let out = hearth(home.path(), &["tools", "call", "calculator", SUM]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(value.to_string().contains("42"), "{value}");

    let inside = elsewhere.path().display().to_string();
    let args = ["tools", "call", "calculator", SUM, "--workspace", &inside];
    let out = hearth(home.path(), &args).await;
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["error"]["kind"], "not_permitted", "{value}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_malformed_rule_is_a_one_line_error_naming_it() {
    for (rules, expected) in [
        (
            "[[rules]]\neffect = \"deny\"\ncapability = \"fs.wrte\"\n",
            "fs.wrte",
        ),
        (
            "[[rules]]\neffect = \"perhaps\"\ntool = \"exec\"\n",
            "`effect` must be",
        ),
        (
            "[[rules]]\neffect = \"deny\"\n",
            "exactly one of `tool` or `capability`",
        ),
    ] {
        let home = tempfile::tempdir().unwrap();
        configure(home.path(), rules);
        let out = hearth(home.path(), &["tools", "call", "calculator", SUM]).await;
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        let line = stderr.lines().last().unwrap_or_default();
        assert!(line.contains("rule 1 in config.toml"), "{stderr}");
        assert!(line.contains(expected), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
