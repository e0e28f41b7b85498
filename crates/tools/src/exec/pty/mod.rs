//! `pty` (hearth, echo, picobot): persistent terminal sessions for interactive programs —
//! spawn, write input, read output (raw for the desktop's terminal view, plain text and the
//! current screen for the model), kill, list; every session is killed when the last holder of
//! its [`Terminals`] is dropped or [`crate::Background::shutdown`] runs (app exit).

mod session;
mod terminals;

use super::env::ChildEnv;
use super::required;
use super::sandboxed::{report, sandbox_for, session_tmp};
use super::streams::{fit_streams, Stream};
use super::workdir::workspace_root;
use crate::error::ToolError;
use crate::tool::{CallFacts, Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use session::{Session, COLS, RING_CAPACITY, ROWS};
use std::time::Duration;

pub use session::TerminalFeed;
pub use terminals::Terminals;

/// How long `kill` waits for the program to be gone.
const KILL_WAIT: Duration = Duration::from_secs(2);

/// The terminal session tool over a session table (its own, or one shared through
/// [`crate::Background`] so that the desktop can watch the sessions).
#[derive(Default)]
pub struct Pty {
    sessions: Terminals,
}

impl Pty {
    pub fn new() -> Self {
        Self::default()
    }

    pub(crate) fn on(sessions: Terminals) -> Self {
        Self { sessions }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PtyAction {
    Spawn,
    Write,
    Read,
    Kill,
    List,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PtyArgs {
    /// `spawn` starts `command` (default: an interactive bash) on a new 24×80 terminal in the
    /// workspace; `write` sends `input`; `read` returns the output since the last read and the
    /// current screen; `kill` ends the session; `list` shows the sessions.
    pub action: PtyAction,
    /// The session, for `write`, `read` and `kill` (as returned by `spawn`, e.g. `pty-1`).
    #[schemars(length(min = 1, max = 64))]
    pub session_id: Option<String>,
    /// For `spawn`: the command line to run in the terminal (through `bash -c`).
    #[schemars(length(min = 1, max = 100000))]
    pub command: Option<String>,
    /// For `write`: the keys to send, exactly. End a line with "\n"; control characters work
    /// too, e.g. "\u0003" (Ctrl-C) or "\u0004" (Ctrl-D).
    #[schemars(length(min = 1, max = 65536))]
    pub input: Option<String>,
}

#[async_trait]
impl Tool for Pty {
    type Args = PtyArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::PTY
    }

    fn description(&self) -> &str {
        "Persistent terminal sessions for interactive programs (shells, REPLs, prompts, \
         full-screen tools). `spawn` a command (default: bash), `write` input (\"\\n\" ends a \
         line, \"\\u0003\" is Ctrl-C), `read` the new output (`text` without escape codes, \
         `screen` as it looks now), `kill`, `list`. Sessions end when Hearth exits."
    }

    /// `list` and `read` only read; `spawn`, `write` and `kill` run, drive or end a program.
    async fn call_facts(&self, args: &PtyArgs) -> CallFacts {
        match args.action {
            PtyAction::List | PtyAction::Read => CallFacts::read_only(),
            PtyAction::Spawn | PtyAction::Write | PtyAction::Kill => CallFacts::of(self.entry()),
        }
    }

    async fn run(&self, ctx: &ToolContext, args: PtyArgs) -> Result<Value, ToolError> {
        match args.action {
            PtyAction::Spawn => self.spawn(ctx, args.command).await,
            PtyAction::List => {
                let sessions: Vec<Value> = self.sessions.all().iter().map(|s| summary(s)).collect();
                Ok(json!({ "sessions": sessions }))
            }
            PtyAction::Write => {
                let id = required(args.session_id, "session_id", "write")?;
                let input = required(args.input, "input", "write")?;
                let session = self.sessions.get(&id)?;
                let written = session.write(input).await?;
                Ok(json!({"session_id": session.id, "bytes_written": written}))
            }
            PtyAction::Read => {
                let id = required(args.session_id, "session_id", "read")?;
                let session = self.sessions.get(&id)?;
                read(&session, ctx).await
            }
            PtyAction::Kill => {
                let id = required(args.session_id, "session_id", "kill")?;
                let session = self.sessions.get(&id)?;
                let killed = session.kill(KILL_WAIT).await;
                self.sessions.forget(&session);
                let mut result = summary(&session);
                result["killed"] = json!(killed);
                Ok(result)
            }
        }
    }
}

impl Pty {
    async fn spawn(&self, ctx: &ToolContext, command: Option<String>) -> Result<Value, ToolError> {
        let root = workspace_root(ctx).await?;
        let tmp = session_tmp(ctx).await?;
        let mut env = ChildEnv::scrubbed();
        env.set("TMPDIR", &tmp);
        let sandbox = sandbox_for(ctx, &env, &[&root, &tmp]);
        let shell = env.shell()?.display().to_string();
        let (label, argv) = match &command {
            Some(line) => (line.clone(), vec![shell.as_str(), "-c", line.as_str()]),
            None => (shell.clone(), vec![shell.as_str()]),
        };
        let session = self
            .sessions
            .open(|id| Session::spawn(id, label, &argv, (&env, &root), &sandbox))?;
        let mut result = summary(&session);
        result["rows"] = json!(ROWS);
        result["cols"] = json!(COLS);
        Ok(result)
    }
}

fn summary(session: &Session) -> Value {
    let mut value = json!({
        "session_id": session.id,
        "command": session.command,
        "pid": session.pid,
    });
    if let (Some(object), Value::Object(status)) = (value.as_object_mut(), session.status()) {
        object.extend(status);
        report(object, &session.isolation);
    }
    value
}

/// `output` (raw, escape codes kept: the desktop renders it), `text` (escape codes removed),
/// `screen`, `cursor`, `dropped_bytes` and the status.
async fn read(session: &Session, ctx: &ToolContext) -> Result<Value, ToolError> {
    let output = session.read().await;
    let mut result = Map::new();
    result.insert("session_id".into(), json!(session.id));
    result.insert("dropped_bytes".into(), json!(output.taken.dropped_bytes));
    if output.taken.dropped_bytes > 0 {
        result.insert(
            "dropped_note".into(),
            json!(format!(
                "only the newest {RING_CAPACITY} bytes are kept between reads"
            )),
        );
    }
    result.insert("screen".into(), json!(output.screen));
    result.insert(
        "cursor".into(),
        json!({"row": output.cursor.0, "col": output.cursor.1}),
    );
    let text = strip_ansi_escapes::strip_str(&output.taken.text);
    let streams = vec![
        Stream {
            name: "output",
            text: output.taken.text,
        },
        Stream { name: "text", text },
    ];
    fit_streams(streams, &ctx.data_dir, &mut result).await?;
    if let Value::Object(status) = session.status() {
        result.extend(status);
    }
    Ok(Value::Object(result))
}
