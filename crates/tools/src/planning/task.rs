//! `task`: tasks with a lifecycle (pending → running → completed / failed / cancelled, failed →
//! pending on retry). A move the task's status does not allow is refused, naming those it does.

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_store::{Db, NewPlanTask, PlanTask, Store, TaskStatus};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::lifecycle::TaskMove;
use super::{required, row_id, text};
use crate::db;
use crate::error::{ErrorKind, ToolError};
use crate::tool::{CallFacts, Tool, ToolContext};

/// The task tool.
pub struct Task(pub(super) Db);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TaskAction {
    Create,
    List,
    Get,
    Start,
    Complete,
    Fail,
    Cancel,
    Retry,
    Update,
}

/// A task status, for `status_filter`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TaskFilter {
    Pending,
    Running,
    Completed,
    Failed,
    Cancelled,
}

impl From<TaskFilter> for TaskStatus {
    fn from(filter: TaskFilter) -> TaskStatus {
        match filter {
            TaskFilter::Pending => TaskStatus::Pending,
            TaskFilter::Running => TaskStatus::Running,
            TaskFilter::Completed => TaskStatus::Completed,
            TaskFilter::Failed => TaskStatus::Failed,
            TaskFilter::Cancelled => TaskStatus::Cancelled,
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskArgs {
    /// `create` (title, description, priority, workflow_id), `list` (status_filter), `get`,
    /// `start`, `complete` (result), `fail` (error), `cancel`, `retry` (a failed task),
    /// `update` (title, description, priority, workflow_id); all but create and list need
    /// task_id.
    pub action: TaskAction,
    #[schemars(length(max = 500))]
    pub title: Option<String>,
    #[schemars(length(max = 10000))]
    pub description: Option<String>,
    /// The task's id, as `create` returned it.
    #[schemars(length(max = 20))]
    pub task_id: Option<String>,
    /// Higher first (default 0).
    #[schemars(range(min = -1000, max = 1000))]
    pub priority: Option<i64>,
    /// Only tasks with this status, for `list`.
    pub status_filter: Option<TaskFilter>,
    /// What the task produced, for `complete`.
    #[schemars(length(max = 20000))]
    pub result: Option<String>,
    /// Why it failed, for `fail`.
    #[schemars(length(max = 5000))]
    pub error: Option<String>,
    /// The workflow the task belongs to.
    #[schemars(length(max = 20))]
    pub workflow_id: Option<String>,
}

impl TaskAction {
    /// The lifecycle move this action is, `None` for those that only read or create.
    fn lifecycle(self) -> Option<TaskMove> {
        match self {
            Self::Create | Self::List | Self::Get => None,
            Self::Start => Some(TaskMove::Start),
            Self::Complete => Some(TaskMove::Complete),
            Self::Fail => Some(TaskMove::Fail),
            Self::Cancel => Some(TaskMove::Cancel),
            Self::Retry => Some(TaskMove::Retry),
            Self::Update => Some(TaskMove::Update),
        }
    }
}

#[async_trait]
impl Tool for Task {
    type Args = TaskArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::TASK
    }

    fn description(&self) -> &str {
        "Track tasks with a lifecycle: create (pending), start (running), complete (with a \
         result), fail (with an error), cancel, retry (a failed task goes back to pending), \
         update, get, list (status_filter). A move the task's status does not allow is refused \
         and the error names the allowed ones. Tasks are stored and survive restarts."
    }

    async fn call_facts(&self, args: &TaskArgs) -> CallFacts {
        match args.action {
            TaskAction::List | TaskAction::Get => CallFacts::read_only(),
            _ => CallFacts::of(self.entry()),
        }
    }

    async fn run(&self, ctx: &ToolContext, args: TaskArgs) -> Result<Value, ToolError> {
        let mutates = self.call_facts(&args).await.mutates;
        let session_id = ctx.session_id.clone();
        db::run(&self.0, mutates, move |store| {
            apply(store, session_id, args)
        })
        .await
    }
}

/// What a call does, on a blocking thread: its reads and its change in one trip to the store.
fn apply(store: &Store, session_id: String, args: TaskArgs) -> Result<Value, ToolError> {
    let workflow_id = match args.workflow_id.as_deref() {
        Some(id) => Some(row_id(Some(id), "workflow_id", "a task's workflow")?),
        None => None,
    };
    if workflow_id.is_some_and(|id| store.workflow(id).ok().flatten().is_none()) {
        return Err(ToolError::invalid(
            "workflow_id",
            "no workflow with this id (see workflow action=list)",
        ));
    }
    let Some(lifecycle) = args.action.lifecycle() else {
        return match args.action {
            TaskAction::Create => {
                let title = required(args.title.as_deref(), "title", "create")?;
                let task = store.insert_plan_task(&NewPlanTask {
                    session_id,
                    title: title.to_string(),
                    description: text(args.description),
                    priority: args.priority.unwrap_or(0),
                    workflow_id,
                })?;
                Ok(json!({"task": view(&task)}))
            }
            TaskAction::List => {
                let tasks = store.list_plan_tasks(args.status_filter.map(TaskStatus::from))?;
                let tasks: Vec<Value> = tasks.iter().map(view).collect();
                Ok(json!({"count": tasks.len(), "tasks": tasks}))
            }
            _ => {
                let id = row_id(args.task_id.as_deref(), "task_id", "get")?;
                let task = store.plan_task(id)?.ok_or_else(|| {
                    ToolError::new(ErrorKind::NotFound, format!("no task with id {id}"))
                })?;
                Ok(json!({"task": view(&task)}))
            }
        };
    };
    let id = row_id(args.task_id.as_deref(), "task_id", lifecycle.as_str())?;
    let task = store.change_plan_task(id, |mut task: PlanTask| {
        let to = lifecycle
            .apply(task.status)
            .map_err(|illegal| ToolError::invalid("action", illegal.to_string()))?;
        match lifecycle {
            TaskMove::Start => task.attempts += 1,
            TaskMove::Complete => task.result = text(args.result),
            TaskMove::Fail => task.error = text(args.error),
            TaskMove::Retry => task.error = None,
            TaskMove::Cancel => {}
            TaskMove::Update => {
                let before = task.clone();
                if let Some(title) = text(args.title) {
                    task.title = title;
                }
                if let Some(description) = text(args.description) {
                    task.description = Some(description);
                }
                if let Some(priority) = args.priority {
                    task.priority = priority;
                }
                if workflow_id.is_some() {
                    task.workflow_id = workflow_id;
                }
                if task == before {
                    return Err(ToolError::invalid(
                        "title",
                        "update needs a new title, description, priority or workflow_id",
                    ));
                }
            }
        }
        task.status = to;
        Ok::<_, ToolError>(task)
    })?;
    Ok(json!({"task": view(&task)}))
}

/// A task as the model reads it: its id as text, and what its status allows next.
fn view(task: &PlanTask) -> Value {
    let next: Vec<&str> = TaskMove::allowed(task.status)
        .iter()
        .map(|m| m.as_str())
        .collect();
    json!({
        "task_id": task.id.to_string(),
        "title": task.title,
        "description": task.description,
        "priority": task.priority,
        "status": task.status,
        "result": task.result,
        "error": task.error,
        "workflow_id": task.workflow_id.map(|id| id.to_string()),
        "attempts": task.attempts,
        "allowed_actions": next,
        "created_at": task.created_at,
        "updated_at": task.updated_at,
    })
}
