//! `pty`: round trips with an interactive shell, a `read -p` prompt and the Python REPL,
//! control characters, raw output versus plain text and screen, the scrubbed environment,
//! kill/drop ending the whole terminal session, and keys typed in the desktop's terminal view.

use crate::exec_tools::{
    assert_no_secrets, err, eventually, hearth, lingering, marker, ok, plant_secrets,
    processes_with, Fixture,
};
use hearth_tools::{
    builtin_registry, builtin_registry_on, Background, Dialect, ErrorKind, Registry,
};
use serde_json::{json, Value};
use std::time::Duration;

pub(crate) struct Term<'a> {
    registry: &'a Registry,
    fixture: &'a Fixture,
    id: Value,
}

impl<'a> Term<'a> {
    pub(crate) async fn spawn(
        registry: &'a Registry,
        fixture: &'a Fixture,
        command: Option<&str>,
    ) -> Self {
        let args = match command {
            Some(command) => json!({"action": "spawn", "command": command}),
            None => json!({"action": "spawn"}),
        };
        let spawned = ok(registry, fixture, "pty", &args.to_string()).await;
        assert_eq!(spawned["status"], "running", "{spawned}");
        Self {
            registry,
            fixture,
            id: spawned["session_id"].clone(),
        }
    }

    async fn write(&self, input: &str) {
        let args = json!({"action": "write", "session_id": self.id, "input": input});
        let written = ok(self.registry, self.fixture, "pty", &args.to_string()).await;
        assert_eq!(written["bytes_written"], input.len());
    }

    async fn read(&self) -> Value {
        let args = json!({"action": "read", "session_id": self.id});
        ok(self.registry, self.fixture, "pty", &args.to_string()).await
    }

    /// Reads until the plain text seen so far contains `needle`; returns all of it.
    pub(crate) async fn read_until(&self, needle: &str) -> String {
        let mut seen = String::new();
        for _ in 0..30 {
            seen.push_str(self.read().await["text"].as_str().unwrap_or_default());
            if seen.contains(needle) {
                return seen;
            }
        }
        panic!("{needle:?} never appeared; seen: {seen:?}");
    }

    /// Reads until the program has exited; returns the last read.
    async fn wait_exit(&self) -> Value {
        for _ in 0..60 {
            let read = self.read().await;
            if read["status"] == "exited" {
                return read;
            }
        }
        panic!("the program in {} never exited", self.id);
    }

    async fn kill(&self) -> Value {
        let args = json!({"action": "kill", "session_id": self.id});
        ok(self.registry, self.fixture, "pty", &args.to_string()).await
    }
}

/// A foreground job carrying `marker` that prints `running` once a Ctrl-C would end it: Python
/// has its SIGINT handler from start-up, so the Ctrl-C raises KeyboardInterrupt. (A `sh -c
/// 'sleep 300; :'` shows its marker in /proc before it has started its `sleep`; dash holds a
/// Ctrl-C that comes then until that sleep, which never got it, ends.) The word is written so
/// that the terminal's echo of the line does not read as it.
fn interruptible(marker: &str) -> String {
    format!(
        "python3 -c 'print(\"run\" \"ning\", flush=True); import time; time.sleep(300)' {marker}"
    )
}

#[tokio::test]
async fn an_interactive_shell_round_trip() {
    let fixture = Fixture::create();
    let registry = hearth();
    let term = Term::spawn(&registry, &fixture, None).await;
    assert_eq!(term.id, "pty-1");
    // The arithmetic makes the command's output differ from its echoed input.
    term.write("echo hi-$((6 * 7))-marker\n").await;
    let seen = term.read_until("hi-42-marker").await;
    assert!(
        seen.contains("echo hi-$((6 * 7))-marker"),
        "the terminal echoes input: {seen}"
    );
    term.write("pwd\n").await;
    term.read_until(&fixture.workspace().display().to_string())
        .await;
    // Ctrl-C ends the foreground job; it is typed once the job says it runs.
    let tag = marker("pty-ctrl-c");
    term.write(&format!("{}\n", interruptible(&tag))).await;
    term.read_until("running").await;
    assert!(!processes_with(&tag).is_empty());
    term.write("\u{3}").await;
    assert!(eventually(Duration::from_secs(3), || processes_with(&tag).is_empty()).await);
    term.read_until("KeyboardInterrupt").await;
    term.write("echo after-$((1 + 1))\n").await;
    term.read_until("after-2").await;
    let killed = term.kill().await;
    assert_eq!(killed["killed"], true);
    let list = ok(&registry, &fixture, "pty", r#"{"action": "list"}"#).await;
    assert_eq!(list, json!({"sessions": []}));
}

#[tokio::test]
async fn a_read_prompt_is_answered() {
    let fixture = Fixture::create();
    let registry = hearth();
    let term = Term::spawn(
        &registry,
        &fixture,
        Some("read -p 'name? ' n; echo \"hello $n\""),
    )
    .await;
    term.read_until("name? ").await;
    term.write("ada\n").await;
    term.read_until("hello ada").await;
    assert_eq!(term.wait_exit().await["exit_code"], 0);
    let list = ok(&registry, &fixture, "pty", r#"{"action": "list"}"#).await;
    assert_eq!(
        list["sessions"][0]["status"], "exited",
        "exited sessions stay listed until killed"
    );
    assert_eq!(term.kill().await["killed"], false);
}

#[tokio::test]
async fn the_python_repl_and_ctrl_d() {
    let fixture = Fixture::create();
    let registry = builtin_registry(Dialect::Picobot);
    let term = Term::spawn(&registry, &fixture, Some("python3 -q -i")).await;
    term.read_until(">>> ").await;
    term.write("print(6 * 7)\n").await;
    term.read_until("42").await;
    term.write("\u{4}").await;
    assert_eq!(term.wait_exit().await["exit_code"], 0);
}

#[tokio::test]
async fn raw_output_keeps_escapes_and_text_drops_them() {
    plant_secrets();
    let fixture = Fixture::create();
    let registry = hearth();
    let term = Term::spawn(
        &registry,
        &fixture,
        Some("printf '\\033[31mred\\033[0m\\n'; env; sleep 300"),
    )
    .await;
    let mut raw = String::new();
    let mut text = String::new();
    let mut screen = String::new();
    for _ in 0..30 {
        let read = term.read().await;
        raw.push_str(read["output"].as_str().unwrap());
        text.push_str(read["text"].as_str().unwrap());
        screen = read["screen"].as_str().unwrap().to_string();
        if text.contains("PATH=") {
            break;
        }
    }
    assert!(raw.contains("\u{1b}[31mred\u{1b}[0m"), "{raw:?}");
    assert!(
        text.starts_with("red\n") && !text.contains('\u{1b}'),
        "{text:?}"
    );
    assert!(screen.starts_with("red\n"), "{screen:?}");
    assert!(text.contains("TERM=xterm-256color"));
    assert_no_secrets(&text);
    term.kill().await;
}

#[tokio::test]
async fn kill_and_drop_end_every_job_in_the_session() {
    let fixture = Fixture::create();
    let registry = hearth();
    let (a, b) = (marker("pty-kill"), marker("pty-drop"));
    let term = Term::spawn(&registry, &fixture, None).await;
    term.write(&format!("{} &\n", lingering(&a))).await;
    assert!(eventually(Duration::from_secs(3), || !processes_with(&a).is_empty()).await);
    term.kill().await;
    assert!(eventually(Duration::from_secs(3), || processes_with(&a).is_empty()).await);
    let other = Term::spawn(&registry, &fixture, None).await;
    other.write(&format!("{} &\n", lingering(&b))).await;
    assert!(eventually(Duration::from_secs(3), || !processes_with(&b).is_empty()).await);
    drop(other);
    drop(registry);
    assert!(eventually(Duration::from_secs(3), || processes_with(&b).is_empty()).await);
}

#[tokio::test]
async fn unknown_sessions_name_the_open_ones() {
    let fixture = Fixture::create();
    let registry = hearth();
    let args = r#"{"action": "read", "session_id": "pty-7"}"#;
    let error = err(&registry, &fixture, "pty", args).await;
    assert_eq!(
        (error.kind, error.field.as_deref()),
        (ErrorKind::NotFound, Some("session_id"))
    );
    assert_eq!(
        error.message,
        "no terminal session pty-7; open sessions: none"
    );
    let term = Term::spawn(&registry, &fixture, None).await;
    let error = err(
        &registry,
        &fixture,
        "pty",
        r#"{"action": "kill", "session_id": "pty-7"}"#,
    )
    .await;
    assert_eq!(
        error.message,
        "no terminal session pty-7; open sessions: pty-1"
    );
    term.kill().await;
}

/// The lines of the current screen, trimmed.
fn screen_lines(read: &Value) -> Vec<String> {
    let screen = read["screen"].as_str().unwrap_or_default();
    screen.lines().map(|l| l.trim().to_string()).collect()
}

#[tokio::test]
async fn keys_typed_in_the_terminal_view_reach_the_program() {
    let fixture = Fixture::create();
    let background = Background::new();
    let registry = builtin_registry_on(Dialect::Hearth, &background);
    let term = Term::spawn(&registry, &fixture, None).await;
    let id = term.id.as_str().unwrap();
    let terminals = background.terminals();
    let typed = |keys: &str| terminals.write(id, keys.to_string());

    // Enter is a carriage return, as a terminal sends it; Backspace (DEL) rubs out the X; the
    // left arrow moves back over the c so that the b lands before it.
    assert_eq!(typed("echo typed-$((6*7))X\u{7f}\r").await.unwrap(), 22);
    term.read_until("typed-42").await;
    typed("echo ac\u{1b}[Db\r").await.unwrap();
    term.read_until("abc").await;
    let lines = screen_lines(&term.read().await);
    assert!(lines.iter().any(|l| l == "typed-42"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "abc"), "{lines:?}");

    // Ctrl-C interrupts the program in the foreground; the shell takes the next line once its
    // prompt is back. The program says when it runs (a Ctrl-C before the shell has handed it
    // the terminal goes to the shell instead), and the prompt and that word are written so that
    // their own echoes do not read as them.
    typed("PS1='rea''dy> '\r").await.unwrap();
    term.read_until("ready> ").await;
    typed("sh -c 'echo run''ning; exec sleep 300'\r")
        .await
        .unwrap();
    term.read_until("running").await;
    typed("\u{3}").await.unwrap();
    let interrupted = term.read_until("ready> ").await;
    assert!(interrupted.contains("^C"), "{interrupted:?}");
    typed("echo after-$((1+1))\r").await.unwrap();
    term.read_until("after-2").await;

    let error = terminals.write("pty-9", "x".into()).await.unwrap_err();
    assert_eq!(error.kind, ErrorKind::NotFound);
    term.kill().await;
    let error = terminals.write(id, "x".into()).await.unwrap_err();
    assert_eq!(error.kind, ErrorKind::NotFound, "a killed session is gone");
}
