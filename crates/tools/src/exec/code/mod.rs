//! `execute_code`: a Python, JavaScript or Bash snippet run by its interpreter in a scratch copy
//! of the workspace, in the sandbox with writes only inside the scratch folder,
//! with the result saying which isolation applied.

mod scratch;

use super::env::ChildEnv;
use super::run::{command, run_to_end};
use super::sandboxed::{refused, report, sandbox_for};
use super::workdir::workspace_root;
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Default time limit, in seconds.
const CODE_TIMEOUT: u64 = 30;

/// The code execution tool.
pub struct ExecuteCode;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Language {
    Python,
    Javascript,
    Bash,
}

impl Language {
    /// The interpreters tried, in order, and the code file's name.
    fn interpreters(self) -> &'static [&'static str] {
        match self {
            Self::Python => &["python3"],
            Self::Javascript => &["node", "nodejs"],
            Self::Bash => &["bash"],
        }
    }

    fn file_name(self) -> &'static str {
        match self {
            Self::Python => "snippet.py",
            Self::Javascript => "snippet.js",
            Self::Bash => "snippet.sh",
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Self::Python => "python",
            Self::Javascript => "javascript",
            Self::Bash => "bash",
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExecuteCodeArgs {
    /// The program text.
    #[schemars(length(min = 1, max = 1000000))]
    pub code: String,
    /// `python` (python3), `javascript` (node) or `bash`.
    pub language: Language,
    /// Time limit in seconds (default 30, at most 600).
    #[schemars(range(min = 1, max = 600))]
    pub timeout: Option<u64>,
}

#[async_trait]
impl Tool for ExecuteCode {
    type Args = ExecuteCodeArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::EXECUTE_CODE
    }

    fn description(&self) -> &str {
        "Runs a Python, JavaScript (node) or Bash program in a scratch copy of the workspace \
         (its working folder; changes there are discarded). It runs in the user's sandbox: it may \
         write only inside that copy, and the result's `isolation` says which confinement applied. \
         Returns {exit_code, stdout, stderr, timed_out, duration_ms, isolation}."
    }

    async fn run(&self, ctx: &ToolContext, args: ExecuteCodeArgs) -> Result<Value, ToolError> {
        let mut env = ChildEnv::scrubbed();
        let candidates = args.language.interpreters();
        let interpreter = candidates
            .iter()
            .find_map(|name| env.find_program(name))
            .ok_or_else(|| {
                ToolError::new(
                    ErrorKind::Unavailable,
                    format!(
                        "{} code needs the {} interpreter, which is not installed (not found on \
                         the PATH)",
                        args.language.as_str(),
                        candidates.join(" or ")
                    ),
                )
            })?;
        let root = workspace_root(ctx).await?;
        let scratch = tokio::task::spawn_blocking(move || scratch::prepare(&root))
            .await
            .map_err(|e| ToolError::internal(format!("copying the workspace failed: {e}")))??;
        let code_path = scratch.code_dir().join(args.language.file_name());
        tokio::fs::write(&code_path, &args.code)
            .await
            .map_err(|e| ToolError::internal(format!("could not write the code file: {e}")))?;
        env.set("TMPDIR", scratch.tmp());
        let limit = Duration::from_secs(args.timeout.unwrap_or(CODE_TIMEOUT));
        let started = Instant::now();
        let sandbox = sandbox_for(ctx, &env, &[scratch.root()]);
        let child_command = command(&sandbox, &interpreter, [&code_path], &env, &scratch.work());
        let (child, isolation) = hearth_sandbox::spawn(&sandbox, child_command)
            .await
            .map_err(refused)?;
        let finished = run_to_end(child, limit, started).await?;
        let mut result = finished.into_result(&ctx.data_dir).await?;
        result.insert("language".into(), json!(args.language.as_str()));
        result.insert(
            "interpreter".into(),
            json!(interpreter.display().to_string()),
        );
        report(&mut result, &isolation);
        result.insert("workspace_copy".into(), json!(&scratch.report));
        // Removing a large copy blocks: keep it off the runtime threads.
        tokio::task::spawn_blocking(move || drop(scratch));
        Ok(Value::Object(result))
    }
}
