//! `exec` (hearth, echo) and PicoBot's `bash`: one shell command in the workspace, to its end or
//! its time limit, whose process group is killed afterwards.

use super::env::ChildEnv;
use super::run::{command, run_to_end};
use super::sandboxed::{refused, report, sandbox_for, session_tmp};
use super::workdir::{resolve_cwd, workspace_root};
use crate::dialect::{DialectArgs, DialectTool};
use crate::error::ToolError;
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use std::time::{Duration, Instant};

/// Default time limit of `exec`, in seconds.
const EXEC_TIMEOUT: u64 = 30;
/// Default time limit of PicoBot's `bash`, in seconds.
const BASH_TIMEOUT: u64 = 60;

/// The shell command tool.
pub struct Exec;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExecArgs {
    /// The command line, run with `bash -c` (`sh -c` where there is no bash). Pipes,
    /// redirections and `&&` work; anything still running in its process group when it
    /// returns or times out is killed (use `process` for background work).
    #[schemars(length(min = 1, max = 100000))]
    pub command: String,
    /// Working folder, relative to the workspace (default: the workspace itself). It must stay
    /// inside the workspace.
    #[schemars(length(max = 4096))]
    pub cwd: Option<String>,
    /// Time limit in seconds (default 30, at most 600). On timeout the command and everything
    /// it started are killed and `timed_out` is true.
    #[schemars(range(min = 1, max = 600))]
    pub timeout: Option<u64>,
}

#[async_trait]
impl Tool for Exec {
    type Args = ExecArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::EXEC
    }

    fn description(&self) -> &str {
        "Runs a shell command in the workspace and returns {exit_code, stdout, stderr, \
         timed_out, duration_ms}. Output over 50,000 characters is cut (start and end kept) and \
         the whole output saved for read_spill. The command sees no API keys or Hearth settings \
         in its environment and no stdin. It runs in the user's sandbox (`isolation` in the \
         result): by default it writes only in the workspace and TMPDIR, cannot read secrets \
         such as ~/.ssh, and has no network."
    }

    async fn run(&self, ctx: &ToolContext, args: ExecArgs) -> Result<Value, ToolError> {
        let root = workspace_root(ctx).await?;
        let cwd = resolve_cwd(&root, args.cwd.as_deref(), "cwd").await?;
        let tmp = session_tmp(ctx).await?;
        let mut env = ChildEnv::scrubbed();
        env.set("TMPDIR", &tmp);
        let shell = env.shell()?;
        let limit = Duration::from_secs(args.timeout.unwrap_or(EXEC_TIMEOUT));
        let started = Instant::now();
        let sandbox = sandbox_for(ctx, &env, &[&root, &tmp]);
        let command = command(&sandbox, &shell, ["-c", args.command.as_str()], &env, &cwd);
        let (child, isolation) = hearth_sandbox::spawn(&sandbox, command)
            .await
            .map_err(refused)?;
        let finished = run_to_end(child, limit, started).await?;
        let mut result = finished.into_result(&ctx.data_dir).await?;
        report(&mut result, &isolation);
        Ok(Value::Object(result))
    }
}

/// PicoBot's `bash`: the same command runner with a 60-second default limit and no `cwd`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BashArgs {
    /// The command line, run with `bash -c` in the workspace.
    #[schemars(length(min = 1, max = 100000))]
    pub command: String,
    /// Time limit in seconds (default 60, at most 600).
    #[schemars(range(min = 1, max = 600))]
    pub timeout: Option<u64>,
}

impl DialectArgs for BashArgs {
    type Canonical = ExecArgs;

    fn into_canonical(self) -> Result<ExecArgs, ToolError> {
        Ok(ExecArgs {
            command: self.command,
            cwd: None,
            timeout: Some(self.timeout.unwrap_or(BASH_TIMEOUT)),
        })
    }
}

/// PicoBot's `bash` tool over the `exec` handler.
pub fn bash() -> DialectTool<Exec, BashArgs> {
    DialectTool::new(
        "bash",
        "Runs a bash command in the workspace (default timeout 60 s, at most 600) and returns \
         {exit_code, stdout, stderr, timed_out, duration_ms}. Output over 50,000 characters is \
         cut and saved whole for later reading. No API keys or Hearth settings reach the command.",
        Exec,
    )
}
