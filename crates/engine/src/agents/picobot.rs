//! PicoBot's `delegate`: `run` in `inline`, `background` or `parallel` mode, `check_task`,
//! `cancel_task` and `list_tasks`, over the same runtime as `delegate_task`.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use hearth_policy::{catalogue, CanonicalTool};
use hearth_protocol::{SubAgentMode, SubAgentRun, SubAgentStatus};
use hearth_tools::{CallFacts, ErrorKind, Tool, ToolContext, ToolError};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::plan::ChildSpec;
use super::tools::{required, run_children};
use super::{run_json, Agents};

/// The tools a PicoBot sub-agent gets when `allowed_tools` is not given: read-only ones.
pub const PICOBOT_DEFAULT_TOOLS: [&str; 6] = [
    "file_read",
    "file_search",
    "content_search",
    "web_fetch",
    "http_request",
    "calculator",
];

const PICOBOT_WAIT: &str = "wait for one with check_task";

/// Runs `list_tasks` lists at most.
const LISTED_TASKS: usize = 50;

pub struct Delegate(pub(super) Arc<Agents>);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DelegateAction {
    Run,
    CheckTask,
    CancelTask,
    ListTasks,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DelegateMode {
    Inline,
    Background,
    Parallel,
}

/// One task of `parallel` mode: a prompt, or a prompt with its own tools.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ParallelTask {
    Prompt(String),
    Detailed(DetailedPrompt),
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DetailedPrompt {
    #[schemars(length(min = 1, max = 20000))]
    pub prompt: String,
    pub allowed_tools: Option<Vec<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DelegateArgs {
    /// `run` starts sub-agents; `check_task`, `cancel_task` (with `task_id`) read or stop one;
    /// `list_tasks` lists this chat's.
    pub action: DelegateAction,
    /// The sub-task (required by `run`, except in `parallel` mode where it is context shared
    /// by every task).
    #[schemars(length(max = 20000))]
    pub prompt: Option<String>,
    /// `inline` (default: wait for the answer), `background` (returns a task_id at once; its
    /// result also arrives in this chat) or `parallel` (every entry of `tasks` at once, waiting
    /// for all).
    pub mode: Option<DelegateMode>,
    /// Tools the sub-agent may use (default: the read-only file_read, file_search,
    /// content_search, web_fetch, http_request, calculator); never more than you have.
    pub allowed_tools: Option<Vec<String>>,
    /// Model responses the sub-agent may make (default 99).
    #[schemars(range(min = 1, max = 200))]
    pub max_iterations: Option<u32>,
    /// Its wall-clock limit in seconds (default 3600).
    #[schemars(range(min = 1, max = 3600))]
    pub timeout_secs: Option<u64>,
    /// `parallel`: the tasks, each a prompt or `{prompt, allowed_tools}`.
    pub tasks: Option<Vec<ParallelTask>>,
    /// The background task (`check_task`, `cancel_task`).
    #[schemars(length(max = 100))]
    pub task_id: Option<String>,
}

impl Delegate {
    /// A run of this chat by id, or `not_found`.
    async fn own_run(
        &self,
        ctx: &ToolContext,
        task_id: Option<&str>,
    ) -> Result<SubAgentRun, ToolError> {
        let id = required("task_id", task_id)?;
        let key = id.clone();
        let run = self
            .0
            .db()
            .read(move |store| store.agent_run(&key))
            .await
            .map_err(|e| ToolError::internal(e.to_string()))?
            .filter(|run| run.parent_session_id == ctx.session_id);
        run.ok_or_else(|| {
            ToolError::new(
                ErrorKind::NotFound,
                format!("no task `{id}` in this chat; list_tasks lists them"),
            )
        })
    }

    /// A run as `check_task` shows it: its stored state, with live progress while it runs.
    fn with_progress(&self, run: &SubAgentRun) -> Value {
        let mut value = run_json(run);
        if let Some(progress) = self.0.progress(&run.id) {
            value["iterations"] = json!(progress.iterations);
            value["current_tool"] = json!(progress.current_tool);
            value["elapsed_ms"] = json!(progress.elapsed_ms);
            value["usage"] = json!(progress.usage);
        }
        value
    }

    async fn run_mode(&self, ctx: &ToolContext, args: DelegateArgs) -> Result<Value, ToolError> {
        let defaults = || -> Vec<String> { PICOBOT_DEFAULT_TOOLS.map(str::to_string).to_vec() };
        let spec = |goal: String, prompt: String, tools: Option<Vec<String>>, mode| ChildSpec {
            goal,
            prompt,
            tools: Some(tools.unwrap_or_else(defaults)),
            profile: None,
            persona: None,
            max_iterations: Some(args.max_iterations.unwrap_or(99)),
            timeout: Some(Duration::from_secs(args.timeout_secs.unwrap_or(3600))),
            mode,
        };
        let mode = args.mode.unwrap_or(DelegateMode::Inline);
        if mode != DelegateMode::Parallel {
            let prompt = required("prompt", args.prompt.as_deref())?;
            let child_mode = match mode {
                DelegateMode::Background => SubAgentMode::Background,
                _ => SubAgentMode::Inline,
            };
            let child = spec(
                prompt.clone(),
                prompt,
                args.allowed_tools.clone(),
                child_mode,
            );
            let mut results = run_children(&self.0, ctx, vec![child], PICOBOT_WAIT).await?;
            return Ok(results.pop().unwrap_or(Value::Null));
        }
        let tasks = args.tasks.as_deref().unwrap_or_default();
        if tasks.is_empty() {
            return Err(ToolError::invalid(
                "tasks",
                "`parallel` mode needs a non-empty `tasks`",
            ));
        }
        let shared = args
            .prompt
            .as_deref()
            .map(str::trim)
            .filter(|p| !p.is_empty());
        let mut specs = Vec::with_capacity(tasks.len());
        for (i, task) in tasks.iter().enumerate() {
            let (prompt, tools) = match task {
                ParallelTask::Prompt(prompt) => (prompt.as_str(), args.allowed_tools.clone()),
                ParallelTask::Detailed(d) => (
                    d.prompt.as_str(),
                    d.allowed_tools
                        .clone()
                        .or_else(|| args.allowed_tools.clone()),
                ),
            };
            let task = required(&format!("tasks[{i}]"), Some(prompt))?;
            let prompt = match shared {
                Some(shared) => format!("{shared}\n\nYour task: {task}"),
                None => task.clone(),
            };
            specs.push(spec(task, prompt, tools, SubAgentMode::Parallel));
        }
        let results = run_children(&self.0, ctx, specs, PICOBOT_WAIT).await?;
        Ok(json!({ "results": results }))
    }
}

#[async_trait]
impl Tool for Delegate {
    type Args = DelegateArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::DELEGATE_TASK
    }

    fn name(&self) -> &str {
        "delegate"
    }

    fn description(&self) -> &str {
        "Creates sub-agents for independent tasks, each in a fresh session with only its prompt \
         and the tools allowed (read-only by default). Modes: inline (wait), background (a \
         task_id to check_task / cancel_task later; the result also arrives in this chat), \
         parallel (all `tasks` at once). At most 3 run at once by default."
    }

    async fn call_facts(&self, args: &DelegateArgs) -> CallFacts {
        match args.action {
            DelegateAction::CheckTask | DelegateAction::ListTasks => CallFacts::read_only(),
            DelegateAction::Run | DelegateAction::CancelTask => CallFacts::of(self.entry()),
        }
    }

    async fn run(&self, ctx: &ToolContext, args: DelegateArgs) -> Result<Value, ToolError> {
        match args.action {
            DelegateAction::Run => self.run_mode(ctx, args).await,
            DelegateAction::CheckTask => {
                let run = self.own_run(ctx, args.task_id.as_deref()).await?;
                Ok(self.with_progress(&run))
            }
            DelegateAction::CancelTask => {
                let run = self.own_run(ctx, args.task_id.as_deref()).await?;
                if run.status != SubAgentStatus::Running {
                    let mut value = run_json(&run);
                    value["note"] = json!("the task had already ended");
                    return Ok(value);
                }
                match self.0.cancel(&run.id).await {
                    Ok(Some(run)) => Ok(run_json(&run)),
                    Ok(None) => Err(ToolError::new(
                        ErrorKind::Unavailable,
                        "the task runs in another Hearth process; cancel it there",
                    )),
                    Err(error) => Err(ToolError::internal(error.to_string())),
                }
            }
            DelegateAction::ListTasks => {
                let session = ctx.session_id.clone();
                let runs = self
                    .0
                    .db()
                    .read(move |store| store.agent_runs(Some(&session), LISTED_TASKS))
                    .await
                    .map_err(|e| ToolError::internal(e.to_string()))?;
                let tasks: Vec<Value> = runs.iter().map(|run| self.with_progress(run)).collect();
                Ok(json!({ "count": tasks.len(), "tasks": tasks }))
            }
        }
    }
}
