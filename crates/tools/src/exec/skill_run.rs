//! `skill_run`: a script inside a skill's folder, run by its interpreter (chosen by extension —
//! `.py` python3, `.js`/`.mjs` node, `.sh` bash — or by its `#!` line) with the skill folder as
//! working directory, the exec tools' time limit, scrubbed environment and process-group kill,
//! and on Linux Landlock letting it write only inside the skill folder and a temporary folder of
//! its own (`TMPDIR`, removed afterwards).

use super::env::ChildEnv;
use super::run::{command, run_to_end};
use super::sandboxed::{refused, report, sandbox_for};
use crate::error::{ErrorKind, ToolError};
use crate::skills::{find, library, skill_error};
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_skills::resolve_inside;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Default time limit, in seconds.
const RUN_TIMEOUT: u64 = 60;

/// `skill_run`.
pub struct SkillRun;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkillRunArgs {
    /// The skill's name.
    #[schemars(length(min = 1, max = 64))]
    pub name: String,
    /// The script, relative to the skill folder (e.g. `scripts/build.py`).
    #[schemars(length(min = 1, max = 1024))]
    pub script: String,
    /// Arguments passed to the script.
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub args: Vec<String>,
    /// Time limit in seconds (default 60, at most 600).
    #[schemars(range(min = 1, max = 600))]
    pub timeout: Option<u64>,
}

/// The program and leading arguments that run `script`.
fn interpreter(env: &ChildEnv, script: &Path) -> Result<(PathBuf, Vec<String>), ToolError> {
    let by_extension: &[&str] = match script.extension().and_then(|e| e.to_str()) {
        Some("py") => &["python3"],
        Some("js" | "mjs" | "cjs") => &["node", "nodejs"],
        Some("sh" | "bash") => &["bash", "sh"],
        _ => &[],
    };
    if let Some(program) = by_extension.iter().find_map(|p| env.find_program(p)) {
        return Ok((program, Vec::new()));
    }
    let first_line = std::fs::read(script)
        .ok()
        .and_then(|bytes| {
            let line = bytes.split(|b| *b == b'\n').next()?.to_vec();
            String::from_utf8(line).ok()
        })
        .unwrap_or_default();
    if let Some(shebang) = first_line.strip_prefix("#!") {
        let mut words = shebang.split_whitespace().map(str::to_string);
        if let Some(program) = words.next() {
            let program = PathBuf::from(program);
            let found = if program.is_absolute() {
                program.is_file().then_some(program)
            } else {
                env.find_program(&program.to_string_lossy())
            };
            if let Some(found) = found {
                return Ok((found, words.collect()));
            }
        }
    }
    Err(ToolError::new(
        ErrorKind::Unavailable,
        if by_extension.is_empty() {
            "the script has no known extension (.py, .js, .sh) and no usable `#!` line".into()
        } else {
            format!(
                "the script needs {}, which is not installed (not found on the PATH)",
                by_extension.join(" or ")
            )
        },
    ))
}

#[async_trait]
impl Tool for SkillRun {
    type Args = SkillRunArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::SKILL_RUN
    }

    fn description(&self) -> &str {
        "Runs a script inside a skill's folder (python, node or bash, by extension or `#!` \
         line) with the skill folder as working directory, in the user's sandbox: it may write only \
         inside that folder and its own TMPDIR. Returns {exit_code, stdout, stderr, timed_out, duration_ms, isolation}."
    }

    async fn run(&self, ctx: &ToolContext, args: SkillRunArgs) -> Result<Value, ToolError> {
        let library = library(ctx).await?;
        let skill = find(&library, &args.name)?;
        let limit = Duration::from_secs(args.timeout.unwrap_or(RUN_TIMEOUT));
        let script = Script {
            dir: &skill.dir,
            path: &args.script,
            args: args.args,
            limit,
            tool_args: None,
        };
        let mut result = run_script(ctx, script).await?;
        result.insert("skill".into(), json!(skill.name));
        Ok(Value::Object(result))
    }
}

/// A script of a skill to run.
pub(crate) struct Script<'a> {
    /// The skill's folder (canonical).
    pub(crate) dir: &'a Path,
    /// The script, relative to it (`field` of errors: `script`).
    pub(crate) path: &'a str,
    pub(crate) args: Vec<String>,
    pub(crate) limit: Duration,
    /// A declared tool's arguments (JSON), on its stdin and in `HEARTH_TOOL_ARGS`.
    pub(crate) tool_args: Option<String>,
}

/// Runs a skill's script: its interpreter, the skill folder as working directory, a scrubbed
/// environment with `SKILL_DIR` and a `TMPDIR` of its own (removed afterwards), writes confined
/// to those two folders where Landlock is available.
pub(crate) async fn run_script(
    ctx: &ToolContext,
    script: Script<'_>,
) -> Result<serde_json::Map<String, Value>, ToolError> {
    let path = resolve_inside(script.dir, script.path).map_err(|e| skill_error(e, "script"))?;
    if !path.is_file() {
        return Err(ToolError::invalid(
            "script",
            format!("`{}` is not a file", script.path),
        ));
    }
    let mut env = ChildEnv::scrubbed();
    env.set("SKILL_DIR", script.dir);
    let tmp = tempfile::Builder::new()
        .prefix("hearth-skill-")
        .tempdir()
        .map_err(|e| ToolError::internal(format!("could not create TMPDIR: {e}")))?;
    env.set("TMPDIR", tmp.path());
    if let Some(tool_args) = &script.tool_args {
        env.set("HEARTH_TOOL_ARGS", tool_args);
    }
    let (program, mut leading) = interpreter(&env, &path)?;
    leading.push(path.display().to_string());
    leading.extend(script.args);
    let started = Instant::now();
    let sandbox = sandbox_for(ctx, &env, &[script.dir, tmp.path()]);
    let mut child_command = command(&sandbox, &program, &leading, &env, script.dir);
    if script.tool_args.is_some() {
        child_command.stdin(std::process::Stdio::piped());
    }
    let (mut child, isolation) = hearth_sandbox::spawn(&sandbox, child_command)
        .await
        .map_err(refused)?;
    if let (Some(mut stdin), Some(tool_args)) = (child.stdin.take(), script.tool_args) {
        // Written on its own task: a script that never reads its stdin does not hold the run.
        tokio::spawn(async move {
            use tokio::io::AsyncWriteExt;
            let _ = stdin.write_all(tool_args.as_bytes()).await;
        });
    }
    let finished = run_to_end(child, script.limit, started).await?;
    let mut result = finished.into_result(&ctx.data_dir).await?;
    result.insert("script".into(), json!(script.path));
    report(&mut result, &isolation);
    Ok(result)
}
