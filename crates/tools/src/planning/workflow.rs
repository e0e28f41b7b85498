//! `workflow`: steps in a DAG (`depends_on`), checked at create (unknown dependencies and cycles
//! are refused), then tracked: `status` lists the ready, blocked and done steps, `advance` marks
//! one done, pause/resume/cancel. It orchestrates only; it runs nothing.

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_store::{Db, NewWorkflow, Store, Workflow as Row, WorkflowStatus, WorkflowStep};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::dag::{self, MAX_STEPS};
use super::lifecycle::WorkflowMove;
use super::{required, row_id, text};
use crate::db;
use crate::error::{ErrorKind, ToolError};
use crate::tool::{CallFacts, Tool, ToolContext};

/// The workflow tool.
pub struct Workflow(pub(super) Db);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WorkflowAction {
    Create,
    Start,
    Status,
    Advance,
    Pause,
    Resume,
    Cancel,
    List,
}

/// A workflow status, for `status_filter`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WorkflowFilter {
    Created,
    Running,
    Paused,
    Completed,
    Cancelled,
}

impl From<WorkflowFilter> for WorkflowStatus {
    fn from(filter: WorkflowFilter) -> WorkflowStatus {
        match filter {
            WorkflowFilter::Created => WorkflowStatus::Created,
            WorkflowFilter::Running => WorkflowStatus::Running,
            WorkflowFilter::Paused => WorkflowStatus::Paused,
            WorkflowFilter::Completed => WorkflowStatus::Completed,
            WorkflowFilter::Cancelled => WorkflowStatus::Cancelled,
        }
    }
}

/// One step of a new workflow.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepArgs {
    /// Unique within the workflow.
    #[schemars(length(min = 1, max = 100))]
    pub id: String,
    #[schemars(length(max = 500))]
    pub title: Option<String>,
    /// Ids of the steps that must be done before this one.
    #[serde(default)]
    #[schemars(length(max = 100))]
    pub depends_on: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorkflowArgs {
    /// `create` (name, description, steps), `start`, `status` (ready, blocked and done steps),
    /// `advance` (mark a ready step done: step_id, or the only ready one), `pause`, `resume`,
    /// `cancel`, `list` (status_filter); all but create and list need workflow_id.
    pub action: WorkflowAction,
    #[schemars(length(max = 200))]
    pub name: Option<String>,
    #[schemars(length(max = 5000))]
    pub description: Option<String>,
    /// The steps, for `create`: a DAG through `depends_on`.
    #[schemars(length(max = 100))]
    pub steps: Option<Vec<StepArgs>>,
    /// The workflow's id, as `create` returned it.
    #[schemars(length(max = 20))]
    pub workflow_id: Option<String>,
    /// The step `advance` marks done (Hearth; default: the only ready step).
    #[schemars(length(max = 100))]
    pub step_id: Option<String>,
    /// Only workflows with this status, for `list`.
    pub status_filter: Option<WorkflowFilter>,
}

impl WorkflowAction {
    fn lifecycle(self) -> Option<WorkflowMove> {
        match self {
            Self::Create | Self::Status | Self::List => None,
            Self::Start => Some(WorkflowMove::Start),
            Self::Advance => Some(WorkflowMove::Advance),
            Self::Pause => Some(WorkflowMove::Pause),
            Self::Resume => Some(WorkflowMove::Resume),
            Self::Cancel => Some(WorkflowMove::Cancel),
        }
    }
}

#[async_trait]
impl Tool for Workflow {
    type Args = WorkflowArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::WORKFLOW
    }

    fn description(&self) -> &str {
        "Orchestrate multi-step work as a DAG of steps (id, title, depends_on): create checks \
         the graph (unknown dependencies and cycles are refused), start, status (which steps \
         are ready, blocked, done), advance (mark a ready step done; the workflow completes \
         with its last step), pause, resume, cancel, list. It tracks progress only: you do the \
         steps yourself."
    }

    async fn call_facts(&self, args: &WorkflowArgs) -> CallFacts {
        match args.action {
            WorkflowAction::Status | WorkflowAction::List => CallFacts::read_only(),
            _ => CallFacts::of(self.entry()),
        }
    }

    async fn run(&self, ctx: &ToolContext, args: WorkflowArgs) -> Result<Value, ToolError> {
        let mutates = self.call_facts(&args).await.mutates;
        let session_id = ctx.session_id.clone();
        db::run(&self.0, mutates, move |store| {
            apply(store, session_id, args)
        })
        .await
    }
}

/// What a call does, on a blocking thread: its reads and its change in one trip to the store.
fn apply(store: &Store, session_id: String, args: WorkflowArgs) -> Result<Value, ToolError> {
    let Some(lifecycle) = args.action.lifecycle() else {
        return match args.action {
            WorkflowAction::Create => {
                let name = required(args.name.as_deref(), "name", "create")?.to_string();
                let steps = steps(args.steps)?;
                let workflow = store.insert_workflow(&NewWorkflow {
                    session_id,
                    name,
                    description: text(args.description),
                    steps,
                })?;
                Ok(json!({"workflow": view(&workflow)}))
            }
            WorkflowAction::List => {
                let rows = store.list_workflows(args.status_filter.map(WorkflowStatus::from))?;
                let rows: Vec<Value> = rows.iter().map(view).collect();
                Ok(json!({"count": rows.len(), "workflows": rows}))
            }
            _ => {
                let id = row_id(args.workflow_id.as_deref(), "workflow_id", "status")?;
                let workflow = store.workflow(id)?.ok_or_else(|| {
                    ToolError::new(ErrorKind::NotFound, format!("no workflow with id {id}"))
                })?;
                Ok(json!({"workflow": view(&workflow)}))
            }
        };
    };
    let id = row_id(
        args.workflow_id.as_deref(),
        "workflow_id",
        lifecycle.as_str(),
    )?;
    let mut advanced = None;
    let workflow = store.change_workflow(id, |mut workflow: Row| {
        workflow.status = lifecycle
            .apply(workflow.status)
            .map_err(|illegal| ToolError::invalid("action", illegal.to_string()))?;
        if lifecycle == WorkflowMove::Advance {
            let now = chrono::Utc::now().timestamp_millis();
            let step = dag::advance(&mut workflow.steps, text(args.step_id).as_deref(), now)
                .map_err(|error| ToolError::invalid("step_id", error.to_string()))?;
            advanced = Some(step);
            if workflow.steps.iter().all(|s| s.done_at.is_some()) {
                workflow.status = WorkflowStatus::Completed;
            }
        }
        Ok::<_, ToolError>(workflow)
    })?;
    let mut result = json!({"workflow": view(&workflow)});
    if let Some(step) = advanced {
        result["advanced"] = json!(step);
    }
    Ok(result)
}

/// The new workflow's steps, checked as a DAG.
fn steps(args: Option<Vec<StepArgs>>) -> Result<Vec<WorkflowStep>, ToolError> {
    let args = args.unwrap_or_default();
    if args.len() > MAX_STEPS {
        return Err(ToolError::invalid(
            "steps",
            format!("at most {MAX_STEPS} steps"),
        ));
    }
    let steps: Vec<WorkflowStep> = args
        .into_iter()
        .map(|step| WorkflowStep {
            title: text(step.title).unwrap_or_else(|| step.id.trim().to_string()),
            id: step.id.trim().to_string(),
            depends_on: step
                .depends_on
                .iter()
                .map(|d| d.trim().to_string())
                .collect(),
            done_at: None,
        })
        .collect();
    dag::check(&steps).map_err(|error| ToolError::invalid("steps", error.to_string()))?;
    Ok(steps)
}

/// A workflow as the model reads it: its steps, which are ready, blocked and done, and what its
/// status allows next.
fn view(workflow: &Row) -> Value {
    let next: Vec<&str> = WorkflowMove::allowed(workflow.status)
        .iter()
        .map(|m| m.as_str())
        .collect();
    json!({
        "workflow_id": workflow.id.to_string(),
        "name": workflow.name,
        "description": workflow.description,
        "status": workflow.status,
        "steps": workflow.steps,
        "progress": dag::progress(&workflow.steps),
        "allowed_actions": next,
        "created_at": workflow.created_at,
        "updated_at": workflow.updated_at,
    })
}
