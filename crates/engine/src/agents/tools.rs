//! The delegation tools of the `hearth` and `echo` dialects — `delegate_task` (workers in
//! parallel, every result returned), `spawn_task` (a background worker whose result arrives in
//! the chat), `agents_list` and `agents_route` (a persona as a child) — and their registration
//! with PicoBot's `delegate`.

use std::sync::Arc;

use async_trait::async_trait;
use hearth_policy::{catalogue, CanonicalTool, ToolProfile};
use hearth_protocol::{AgentPersona, SubAgentMode};
use hearth_tools::{
    CallFacts, Dialect, ErrorKind, Registry, RegistryError, Tool, ToolContext, ToolError,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::plan::ChildSpec;
use super::{run_json, waits, Agents};

/// How a hearth-dialect model waits for a running child.
const HEARTH_WAIT: &str =
    "wait for one to finish (a background worker's result arrives in this chat)";

/// Registers the delegation tools of every dialect, backed by `agents`.
pub fn register_agents(registry: &mut Registry, agents: &Arc<Agents>) -> Result<(), RegistryError> {
    use Dialect::{Echo, Hearth, Picobot};
    registry.register_for(&[Hearth, Echo], DelegateTask(Arc::clone(agents)))?;
    registry.register_for(&[Hearth, Echo], SpawnTask(Arc::clone(agents)))?;
    registry.register_for(&[Hearth, Echo], AgentsList(Arc::clone(agents)))?;
    registry.register_for(&[Hearth, Echo], AgentsRoute(Arc::clone(agents)))?;
    registry.register_for(&[Picobot], super::picobot::Delegate(Arc::clone(agents)))?;
    Ok(())
}

/// Starts the children of `specs` from the turn running in `ctx`'s session and returns, per
/// child, its stored end (inline, parallel) or its task id (background).
pub(super) async fn run_children(
    agents: &Arc<Agents>,
    ctx: &ToolContext,
    specs: Vec<ChildSpec>,
    wait_hint: &str,
) -> Result<Vec<Value>, ToolError> {
    let parent = agents.parent(&ctx.session_id)?;
    let started = agents.start(&parent, specs, &ctx.cancel, wait_hint).await?;
    let mut results = Vec::with_capacity(started.len());
    for child in started {
        if !waits(child.run.mode) {
            results.push(json!({
                "task_id": child.run.id,
                "session_id": child.run.session_id,
                "goal": child.run.goal,
                "status": child.run.status.as_str(),
                "tools": child.run.tools,
            }));
            continue;
        }
        let id = child.run.id.clone();
        let run = match child.done.await {
            Ok(run) => run,
            // The task ended without returning (a panic): its row was ended on the way out.
            Err(_) => agents
                .db()
                .read(move |store| store.agent_run(&id))
                .await
                .ok()
                .flatten()
                .unwrap_or(child.run),
        };
        results.push(run_json(&run));
    }
    Ok(results)
}

/// A text field that must not be empty once trimmed.
pub(super) fn required(field: &str, value: Option<&str>) -> Result<String, ToolError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        Some(value) => Ok(value.to_string()),
        None => Err(ToolError::invalid(
            field,
            format!("`{field}` is required and must not be empty"),
        )),
    }
}

fn profile(field: &str, value: Option<&str>) -> Result<Option<ToolProfile>, ToolError> {
    value
        .map(|v| v.trim().parse::<ToolProfile>())
        .transpose()
        .map_err(|error| ToolError::invalid(field, error.to_string()))
}

/// One sub-task of `delegate_task`: a text, or a task with context of its own.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum TaskItem {
    Text(String),
    Detailed(DetailedTask),
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DetailedTask {
    /// What this worker does.
    #[schemars(length(min = 1, max = 20000))]
    pub task: String,
    /// Facts it needs (it sees nothing of this chat).
    #[schemars(length(max = 50000))]
    pub context: Option<String>,
}

pub struct DelegateTask(Arc<Agents>);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DelegateTaskArgs {
    /// The overall goal, told to every worker with its task; without `tasks`, one worker works
    /// on the goal itself.
    #[schemars(length(max = 20000))]
    pub goal: Option<String>,
    /// Sub-tasks, one worker each, all running at once; the call returns when every worker
    /// has ended, with every result. Each is a text or `{task, context}`.
    #[serde(default)]
    pub tasks: Vec<TaskItem>,
    /// Tools the workers may use, by name (default: all of yours except the delegation tools;
    /// never more than you have).
    pub tools: Option<Vec<String>>,
    /// The workers' tool profile: `minimal`, `messaging`, `coding` or `full` (never more than
    /// yours).
    pub worker_profile: Option<String>,
    /// Model responses each worker may make (default 12).
    #[schemars(range(min = 1, max = 200))]
    pub max_iterations: Option<u32>,
}

#[async_trait]
impl Tool for DelegateTask {
    type Args = DelegateTaskArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::DELEGATE_TASK
    }

    fn description(&self) -> &str {
        "Delegates work to worker agents, each in a fresh session with only its task (and the \
         goal) to go on and the tools you allow; several tasks run in parallel and the call \
         returns every worker's status and result. Workers cannot delegate further. At most 3 \
         run at once by default."
    }

    async fn run(&self, ctx: &ToolContext, args: DelegateTaskArgs) -> Result<Value, ToolError> {
        let goal = args
            .goal
            .as_deref()
            .map(str::trim)
            .filter(|g| !g.is_empty());
        let profile = profile("worker_profile", args.worker_profile.as_deref())?;
        let mut tasks: Vec<(String, Option<String>)> = Vec::with_capacity(args.tasks.len());
        for (i, item) in args.tasks.into_iter().enumerate() {
            let (task, context) = match item {
                TaskItem::Text(task) => (task, None),
                TaskItem::Detailed(d) => (d.task, d.context),
            };
            tasks.push((required(&format!("tasks[{i}]"), Some(&task))?, context));
        }
        if tasks.is_empty() {
            let goal = required("goal", goal)?;
            tasks.push((goal, None));
        }
        let mode = if tasks.len() > 1 {
            SubAgentMode::Parallel
        } else {
            SubAgentMode::Inline
        };
        let specs = tasks
            .into_iter()
            .map(|(task, context)| {
                let mut prompt = match goal {
                    Some(goal) if goal != task => {
                        format!("Overall goal: {goal}\n\nYour task: {task}")
                    }
                    _ => task.clone(),
                };
                if let Some(context) = context.filter(|c| !c.trim().is_empty()) {
                    prompt.push_str(&format!("\n\nContext:\n{context}"));
                }
                ChildSpec {
                    goal: task,
                    prompt,
                    tools: args.tools.clone(),
                    profile,
                    persona: None,
                    max_iterations: Some(args.max_iterations.unwrap_or(12)),
                    timeout: None,
                    mode,
                }
            })
            .collect();
        let results = run_children(&self.0, ctx, specs, HEARTH_WAIT).await?;
        Ok(json!({ "results": results }))
    }
}

pub struct SpawnTask(Arc<Agents>);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpawnTaskArgs {
    /// What the background worker does.
    #[schemars(length(min = 1, max = 20000))]
    pub task: String,
    /// Facts it needs (it sees nothing of this chat).
    #[schemars(length(max = 50000))]
    pub context: Option<String>,
}

#[async_trait]
impl Tool for SpawnTask {
    type Args = SpawnTaskArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::SPAWN_TASK
    }

    fn description(&self) -> &str {
        "Starts a background worker agent with your tools (except delegation) and returns its \
         task_id at once; when it ends, its status and result arrive in this chat as a message, \
         which your next turn sees. Once your turn has ended nobody can approve its high-risk \
         calls, which are then denied: give it work that needs no approval."
    }

    async fn run(&self, ctx: &ToolContext, args: SpawnTaskArgs) -> Result<Value, ToolError> {
        let task = required("task", Some(&args.task))?;
        let mut prompt = task.clone();
        if let Some(context) = args.context.filter(|c| !c.trim().is_empty()) {
            prompt.push_str(&format!("\n\nContext:\n{context}"));
        }
        let spec = ChildSpec {
            goal: task,
            prompt,
            tools: None,
            profile: None,
            persona: None,
            max_iterations: None,
            timeout: None,
            mode: SubAgentMode::Background,
        };
        let mut results = run_children(&self.0, ctx, vec![spec], HEARTH_WAIT).await?;
        let mut started = results.pop().unwrap_or(Value::Null);
        started["note"] = json!("its result arrives in this chat when it ends");
        Ok(started)
    }
}

pub struct AgentsList(Arc<Agents>);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentsListArgs {}

#[async_trait]
impl Tool for AgentsList {
    type Args = AgentsListArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::AGENTS_LIST
    }

    fn description(&self) -> &str {
        "Lists the configured agent personas (name, description, model, tool profile) that \
         agents_route can hand a message to."
    }

    async fn call_facts(&self, _args: &AgentsListArgs) -> CallFacts {
        CallFacts::read_only()
    }

    async fn run(&self, _ctx: &ToolContext, _args: AgentsListArgs) -> Result<Value, ToolError> {
        let personas = self.0.settings().agents;
        let agents: Vec<Value> = personas
            .iter()
            .map(|p| {
                json!({
                    "name": p.name,
                    "description": p.description,
                    "model": (!p.model.is_empty()).then_some(&p.model),
                    "tool_profile": p.tool_profile.map(ToolProfile::as_str),
                })
            })
            .collect();
        Ok(json!({ "count": agents.len(), "agents": agents }))
    }
}

pub struct AgentsRoute(Arc<Agents>);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentsRouteArgs {
    /// The persona's name (see agents_list).
    #[schemars(length(min = 1, max = 200))]
    pub agent: String,
    /// What to ask it; it sees nothing else of this chat.
    #[schemars(length(min = 1, max = 50000))]
    pub message: String,
}

/// The persona called `name`, or an error listing those there are.
pub(super) fn persona(agents: &Agents, name: &str) -> Result<AgentPersona, ToolError> {
    let personas = agents.settings().agents;
    if let Some(found) = personas.iter().find(|p| p.name == name.trim()) {
        return Ok(found.clone());
    }
    let names: Vec<&str> = personas.iter().map(|p| p.name.as_str()).collect();
    Err(ToolError::new(
        ErrorKind::NotFound,
        format!(
            "no agent named `{name}`; configured agents: {} (add [[agents]] in config.toml or \
             Settings → Agents)",
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        ),
    ))
}

#[async_trait]
impl Tool for AgentsRoute {
    type Args = AgentsRouteArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::AGENTS_ROUTE
    }

    fn description(&self) -> &str {
        "Hands a message to a configured agent persona, which answers it as a sub-agent with its \
         own instructions, model and tools (never more than yours); returns its status and \
         answer."
    }

    async fn run(&self, ctx: &ToolContext, args: AgentsRouteArgs) -> Result<Value, ToolError> {
        let persona = persona(&self.0, &args.agent)?;
        let message = required("message", Some(&args.message))?;
        let spec = ChildSpec {
            goal: message.clone(),
            prompt: message,
            tools: None,
            profile: None,
            persona: Some(persona),
            max_iterations: None,
            timeout: None,
            mode: SubAgentMode::Inline,
        };
        let mut results = run_children(&self.0, ctx, vec![spec], HEARTH_WAIT).await?;
        Ok(results.pop().unwrap_or(Value::Null))
    }
}
