//! `skill_run`: a script inside a skill's folder, run by its interpreter (chosen by extension —
//! `.py` python3, `.js`/`.mjs` node, `.sh` bash — or by its `#!` line) with the skill folder as
//! working directory, the exec tools' time limit, scrubbed environment and process-group kill,
//! and on Linux Landlock letting it write only inside the skill folder.

use super::code::spawn_confined;
use super::env::ChildEnv;
use super::run::{command, run_to_end};
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
         line) with the skill folder as working directory; on Linux it may write only inside \
         that folder. Returns {exit_code, stdout, stderr, timed_out, duration_ms, isolation}."
    }

    async fn run(&self, ctx: &ToolContext, args: SkillRunArgs) -> Result<Value, ToolError> {
        let library = library(ctx).await?;
        let skill = find(&library, &args.name)?;
        let script =
            resolve_inside(&skill.dir, &args.script).map_err(|e| skill_error(e, "script"))?;
        if !script.is_file() {
            return Err(ToolError::invalid(
                "script",
                format!("`{}` is not a file", args.script),
            ));
        }
        let mut env = ChildEnv::scrubbed();
        env.set("SKILL_DIR", &skill.dir);
        let (program, mut leading) = interpreter(&env, &script)?;
        leading.push(script.display().to_string());
        leading.extend(args.args);
        let limit = Duration::from_secs(args.timeout.unwrap_or(RUN_TIMEOUT));
        let started = Instant::now();
        let child_command = command(&program, &leading, &env, &skill.dir);
        let (child, isolation) = spawn_confined(child_command, skill.dir.clone()).await?;
        let finished = run_to_end(child, limit, started).await?;
        let mut result = finished.into_result(&ctx.data_dir).await?;
        result.insert("skill".into(), json!(skill.name));
        result.insert("script".into(), json!(args.script));
        result.insert("isolation".into(), json!(isolation.kind));
        if let Some(reason) = isolation.reason {
            result.insert("isolation_reason".into(), json!(reason));
        }
        Ok(Value::Object(result))
    }
}
