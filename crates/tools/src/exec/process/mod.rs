//! `process`: background commands started in the workspace, listed, polled for their new
//! output (bounded ring buffers) and stopped; all of them are killed when the last holder of
//! the table is dropped or [`crate::Background::shutdown`] runs (app exit).

mod table;

use super::env::ChildEnv;
use super::required;
use super::run::command;
use super::sandboxed::{refused, report, sandbox_for, session_tmp};
use super::streams::{fit_streams, Stream};
use super::workdir::workspace_root;
use crate::error::ToolError;
use crate::tool::{CallFacts, Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::sync::Arc;
use std::time::Duration;
use table::{add_status, Entry, RING_CAPACITY};

pub(crate) use table::Table;

/// Default time limit of a background process, in seconds.
const PROCESS_TIMEOUT: u64 = 300;
/// How long `stop` waits for the process to be gone.
const STOP_WAIT: Duration = Duration::from_secs(5);

/// The background process tool over a process table (its own, or one shared through
/// [`crate::Background`]).
#[derive(Debug, Default)]
pub struct Process {
    table: Arc<Table>,
}

impl Process {
    pub fn new() -> Self {
        Self::default()
    }

    pub(crate) fn on(table: Arc<Table>) -> Self {
        Self { table }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProcessAction {
    Start,
    List,
    Poll,
    Stop,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProcessArgs {
    /// `start` runs `command` in the background and returns its `process_id`; `list` shows
    /// every process; `poll` returns the output written since the last poll and the status;
    /// `stop` kills the process and everything it started.
    pub action: ProcessAction,
    /// The command line for `start` (run with `bash -c` in the workspace).
    #[schemars(length(min = 1, max = 100000))]
    pub command: Option<String>,
    /// The process, for `poll` and `stop` (as returned by `start`, e.g. `proc-1`).
    #[schemars(length(min = 1, max = 64))]
    pub process_id: Option<String>,
    /// For `start`: seconds after which the process is killed (default 300, at most 86400).
    #[schemars(range(min = 1, max = 86400))]
    pub timeout: Option<u64>,
}

#[async_trait]
impl Tool for Process {
    type Args = ProcessArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::PROCESS
    }

    fn description(&self) -> &str {
        "Background processes (servers, watchers, long builds). `start` a command, `list` them, \
         `poll` one for its new output (the last 1 MiB per stream is kept; `dropped_bytes` \
         counts what was lost between polls) and status, `stop` it. Processes are killed at \
         their timeout (default 300 s) and when Hearth exits."
    }

    /// `list` and `poll` only read; `start` and `stop` run or end something.
    async fn call_facts(&self, args: &ProcessArgs) -> CallFacts {
        match args.action {
            ProcessAction::List | ProcessAction::Poll => CallFacts::read_only(),
            ProcessAction::Start | ProcessAction::Stop => CallFacts::of(self.entry()),
        }
    }

    async fn run(&self, ctx: &ToolContext, args: ProcessArgs) -> Result<Value, ToolError> {
        match args.action {
            ProcessAction::Start => {
                let command = required(args.command, "command", "start")?;
                self.start(ctx, command, args.timeout).await
            }
            ProcessAction::List => {
                let processes: Vec<Value> = self.table.list().iter().map(|e| e.summary()).collect();
                Ok(json!({ "processes": processes }))
            }
            ProcessAction::Poll => {
                let id = required(args.process_id, "process_id", "poll")?;
                let entry = self.table.get(&id)?;
                poll(&entry, ctx).await
            }
            ProcessAction::Stop => {
                let id = required(args.process_id, "process_id", "stop")?;
                let entry = self.table.get(&id)?;
                let was_running = entry.stop(STOP_WAIT).await;
                let mut result = poll(&entry, ctx).await?;
                result["stopped"] = json!(was_running);
                if !was_running {
                    result["note"] = json!("the process had already ended");
                }
                Ok(result)
            }
        }
    }
}

impl Process {
    async fn start(
        &self,
        ctx: &ToolContext,
        command_line: String,
        timeout: Option<u64>,
    ) -> Result<Value, ToolError> {
        let root = workspace_root(ctx).await?;
        let tmp = session_tmp(ctx).await?;
        let mut env = ChildEnv::scrubbed();
        env.set("TMPDIR", &tmp);
        let shell = env.shell()?;
        let limit = timeout.unwrap_or(PROCESS_TIMEOUT);
        let sandbox = sandbox_for(ctx, &env, &[&root, &tmp]);
        let command = command(&sandbox, &shell, ["-c", command_line.as_str()], &env, &root);
        let (child, isolation) = hearth_sandbox::spawn(&sandbox, command)
            .await
            .map_err(refused)?;
        let entry = self
            .table
            .insert(command_line, child, Duration::from_secs(limit))?;
        let mut result = entry.summary();
        result["timeout_s"] = json!(limit);
        if let Some(object) = result.as_object_mut() {
            report(object, &isolation);
        }
        Ok(result)
    }
}

/// The output since the last poll, the status and what the rings dropped.
async fn poll(entry: &Entry, ctx: &ToolContext) -> Result<Value, ToolError> {
    // The status first: once it says ended, all the output is in the rings.
    let status = entry.status();
    let (stdout, stderr) = entry.take_output();
    let mut result = Map::new();
    result.insert("process_id".into(), json!(entry.id));
    result.insert(
        "dropped_bytes".into(),
        json!({"stdout": stdout.dropped_bytes, "stderr": stderr.dropped_bytes}),
    );
    if stdout.dropped_bytes + stderr.dropped_bytes > 0 {
        result.insert(
            "dropped_note".into(),
            json!(format!(
                "only the newest {RING_CAPACITY} bytes per stream are kept between polls"
            )),
        );
    }
    let streams = vec![
        Stream {
            name: "stdout",
            text: stdout.text,
        },
        Stream {
            name: "stderr",
            text: stderr.text,
        },
    ];
    fit_streams(streams, &ctx.data_dir, &mut result).await?;
    let mut result = Value::Object(result);
    add_status(&mut result, status);
    Ok(result)
}
