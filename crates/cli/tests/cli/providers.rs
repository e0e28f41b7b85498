//! `hearth-cli providers list|remove` on a real `config.toml` in a temporary HEARTH_HOME: the
//! way out for a person who cannot use the window. Removing keeps the rest of the file as it
//! was written, deletes the provider's key only when the keychain holds one, and refuses an
//! unknown id. Storing a key needs the keychain of `scripts/with-headless-session.sh`.

use std::process::Stdio;

use tokio::io::AsyncWriteExt;

use super::*;

const KEPT_HEAD: &str = r#"# Hearth settings, edited by hand
language = "en"
max_iterations = 30   # enough for me
default_provider = "lm"
default_model = "mock"

# LM Studio on this machine
[[providers]]
id = "lm"
name = "LM Studio"
kind = "openai"
base_url = "http://127.0.0.1:1234/v1"
default_model = "mock"
"#;

/// The same server added twice with the same default model (what once locked people out of
/// Settings).
const SECOND: &str = r#"
# the same server again, added in Settings
[[providers]]
id = "lm-2"
name = "LM Studio again"
kind = "openai"
base_url = "http://127.0.0.1:1234/v1"
default_model = "mock"
"#;

const KEPT_TAIL: &str = r#"
[model_context_windows]
mock = 8192 # what LM Studio reported
"#;

fn write_config(cli: &Cli) -> PathBuf {
    let path = cli.home.path().join("config.toml");
    std::fs::write(&path, format!("{KEPT_HEAD}{SECOND}{KEPT_TAIL}")).unwrap();
    path
}

/// `hearth-cli ARGS` with `input` on stdin.
async fn run_with_stdin(cli: &Cli, args: &[&str], input: &str) -> Output {
    let mut child = cli
        .command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).await.unwrap();
    drop(stdin);
    child.wait_with_output().await.unwrap()
}

/// The CLI with a keychain that cannot be reached (no D-Bus session).
fn without_keychain(cli: &Cli) -> Command {
    let mut cmd = cli.command();
    cmd.env(
        "DBUS_SESSION_BUS_ADDRESS",
        "unix:path=/nonexistent/hearth-test-bus",
    );
    cmd
}

#[tokio::test(flavor = "multi_thread")]
async fn list_shows_every_provider_and_marks_the_default() {
    let cli = Cli::new();
    write_config(&cli);
    let out = cli.run(&["providers", "list", "--json"]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        listed,
        json!([
            {"id": "lm", "name": "LM Studio", "kind": "openai", "base_url": "http://127.0.0.1:1234/v1", "default_model": "mock", "default": true},
            {"id": "lm-2", "name": "LM Studio again", "kind": "openai", "base_url": "http://127.0.0.1:1234/v1", "default_model": "mock", "default": false},
        ])
    );
    let out = cli.run(&["providers", "list"]).await;
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(
        lines,
        [
            "lm\tLM Studio\topenai\thttp://127.0.0.1:1234/v1\tmock\t(default)",
            "lm-2\tLM Studio again\topenai\thttp://127.0.0.1:1234/v1\tmock",
        ]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn removing_a_provider_keeps_the_rest_of_the_file_and_deletes_its_stored_key() {
    let cli = Cli::new();
    let path = write_config(&cli);
    let stored = run_with_stdin(&cli, &["keys", "set", "lm-2"], "sk-remove-me-4321\n").await;
    assert!(
        stored.status.success(),
        "storing a key needs the keychain (run under scripts/with-headless-session.sh): {}",
        text(&stored.stderr)
    );
    let out = cli.run(&["providers", "remove", "lm-2"]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("removed provider `lm-2`"), "{stdout}");
    assert!(
        stdout.contains("removed its API key from the OS keychain"),
        "{stdout}"
    );
    // Every other line, comment and blank is as it was written.
    let after = std::fs::read_to_string(&path).unwrap();
    assert_eq!(after, format!("{KEPT_HEAD}{KEPT_TAIL}"));
    let status = cli.run(&["keys", "status", "lm-2"]).await;
    assert_eq!(text(&status.stdout).trim(), "lm-2: no key stored");
    // The app still loads it: the remaining provider is listed as the default.
    let listed = cli.run(&["providers", "list"]).await;
    assert_eq!(
        text(&listed.stdout).trim(),
        "lm\tLM Studio\topenai\thttp://127.0.0.1:1234/v1\tmock\t(default)"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn removing_the_default_moves_it_to_the_next_provider() {
    let cli = Cli::new();
    let path = write_config(&cli);
    let out = cli.run(&["providers", "remove", "lm"]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    // No key was stored, so none is mentioned.
    assert!(
        !text(&out.stdout).contains("API key"),
        "{}",
        text(&out.stdout)
    );
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(after.contains("default_provider = \"lm-2\""), "{after}");
    assert!(
        after.contains("max_iterations = 30   # enough for me\n"),
        "{after}"
    );
    assert!(!after.contains("id = \"lm\"\n"), "{after}");
    assert!(after.ends_with(KEPT_TAIL), "{after}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unknown_id_is_refused_and_the_file_is_left_alone() {
    let cli = Cli::new();
    let path = write_config(&cli);
    let out = cli.run(&["providers", "remove", "lm-3"]).await;
    assert_one_line_error(
        &out,
        "no provider `lm-3` in config.toml (providers: lm, lm-2); see `hearth-cli providers list`",
    )
    .await;
    let after = std::fs::read_to_string(&path).unwrap();
    assert_eq!(after, format!("{KEPT_HEAD}{SECOND}{KEPT_TAIL}"));
}

#[tokio::test(flavor = "multi_thread")]
async fn without_a_keychain_the_provider_is_still_removed_and_the_key_left_is_named() {
    let cli = Cli::new();
    let path = write_config(&cli);
    let out = without_keychain(&cli)
        .args(["providers", "remove", "lm-2"])
        .output()
        .await
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!("{KEPT_HEAD}{KEPT_TAIL}")
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("the OS keychain could not be read")
            && stderr.contains("`hearth-cli keys delete lm-2`"),
        "{stderr}"
    );
}
