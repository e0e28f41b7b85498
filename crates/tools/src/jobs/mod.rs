//! Scheduled-job tools: Echo/Hearth `cronjob`, CeeCore `schedule_task` and PicoBot's `cron_*` —
//! thin adapters over the scheduler's job service. Every dialect's name is an alias of the
//! canonical high-risk `cronjob` for policy; listing is read-only, everything else asks.

mod ceecore;
mod confirm;
mod cronjob;
mod picobot;

use std::sync::Arc;

use hearth_policy::{catalogue, CANONICAL_TOOLS};
use hearth_scheduler::{
    system_zone, BlockingJobs, JobError, JobService, JobView, RunnerSignal, SchedulerStatus,
    SystemClock,
};
use hearth_store::{Db, JobsError};
use serde_json::{json, Value};

use crate::dialect::Dialect;
use crate::error::{ErrorKind, ToolError};
use crate::registry::{Registry, RegistryError};
use crate::tool::ToolContext;

use ceecore::ScheduleTask;
use cronjob::Cronjob;
use picobot::{CronAdd, CronDisable, CronEnable, CronList, CronRemove, CronUpdate};

/// Registers the job tools of `registry`'s dialect over `db`. `signal` wakes the runner in
/// this process when there is one (the app); without it, a runner elsewhere (the daemon) picks
/// changes up within 30 s. Whether any scheduler is alive is read from its heartbeat.
pub fn register_jobs(
    registry: &mut Registry,
    db: impl Into<Db>,
    signal: Option<RunnerSignal>,
) -> Result<(), RegistryError> {
    register_job_tools(registry, Jobs::new(db.into(), signal, None))
}

/// In a skill run: replaces the job tools of `registry` with ones whose new jobs are bound to
/// `skill` (their runs are skill runs of it; the README's "Skills" section).
pub fn bind_jobs_to_skill(
    registry: &mut Registry,
    db: impl Into<Db>,
    signal: Option<RunnerSignal>,
    skill: &str,
) -> Result<(), RegistryError> {
    for name in JOB_TOOLS {
        registry.remove(name);
    }
    register_job_tools(
        registry,
        Jobs::new(db.into(), signal, Some(skill.to_string())),
    )
}

/// Every dialect's job tool names.
const JOB_TOOLS: [&str; 8] = [
    "cronjob",
    "schedule_task",
    "cron_add",
    "cron_list",
    "cron_update",
    "cron_remove",
    "cron_enable",
    "cron_disable",
];

fn register_job_tools(registry: &mut Registry, jobs: Jobs) -> Result<(), RegistryError> {
    use Dialect::{Ceecore, Echo, Hearth, Picobot};
    registry.register_for(&[Hearth, Echo], Cronjob(jobs.clone()))?;
    registry.register_for(&[Ceecore], ScheduleTask(jobs.clone()))?;
    registry.register_for(&[Picobot], CronAdd(jobs.clone()))?;
    registry.register_for(&[Picobot], CronList(jobs.clone()))?;
    registry.register_for(&[Picobot], CronUpdate(jobs.clone()))?;
    registry.register_for(&[Picobot], CronRemove(jobs.clone()))?;
    registry.register_for(&[Picobot], CronEnable(jobs.clone()))?;
    registry.register_for(&[Picobot], CronDisable(jobs))?;
    Ok(())
}

/// The shared handle every job tool holds, and the skill new jobs are bound to (in a skill
/// run).
#[derive(Clone)]
pub struct Jobs(Arc<JobService>, Option<String>);

/// The high-risk tools an authorization covers: every high-risk canonical tool except
/// `cronjob` itself (a scheduled run does not create more jobs), sorted.
pub fn authorizable_tools() -> Vec<String> {
    let mut tools: Vec<String> = CANONICAL_TOOLS
        .iter()
        .filter(|tool| tool.high_risk && tool.name != catalogue::CRONJOB.name)
        .map(|tool| tool.name.to_string())
        .collect();
    tools.sort_unstable();
    tools
}

/// How a dialect names the job fields in its arguments, for error messages.
struct Fields {
    prompt: &'static str,
    target: &'static str,
}

impl Jobs {
    fn new(db: Db, signal: Option<RunnerSignal>, skill: Option<String>) -> Jobs {
        let mut service = JobService::new(db, Arc::new(SystemClock), system_zone());
        if let Some(signal) = signal {
            service = service.with_signal(signal);
        }
        Jobs(Arc::new(service), skill)
    }

    /// The skill a job created now is bound to.
    fn skill(&self) -> Option<String> {
        self.1.clone()
    }

    /// Runs `read` (service reads only) through the store's `Db` and maps its error.
    async fn read<T, F>(&self, fields: &Fields, read: F) -> Result<T, ToolError>
    where
        F: FnOnce(&BlockingJobs<'_>) -> Result<T, JobError> + Send + 'static,
        T: Send + 'static,
    {
        self.0.read(read).await.map_err(|e| tool_error(e, fields))
    }

    /// Runs `write` (a change, with what the result shows of it) through the store's `Db`, after
    /// the writes queued before it, and maps its error.
    async fn write<T, F>(&self, fields: &Fields, write: F) -> Result<T, ToolError>
    where
        F: FnOnce(&BlockingJobs<'_>) -> Result<T, JobError> + Send + 'static,
        T: Send + 'static,
    {
        self.0.write(write).await.map_err(|e| tool_error(e, fields))
    }
}

/// Whether anything will run jobs, as JSON for results (read with the call's other store work).
fn scheduler(jobs: &BlockingJobs<'_>) -> Value {
    scheduler_json(jobs.scheduler_status().ok())
}

fn scheduler_json(status: Option<SchedulerStatus>) -> Value {
    match status {
        Some(status) if status.alive => json!({
            "running": true,
            "pid": status.pid,
        }),
        _ => json!({
            "running": false,
            "note": NOT_RUNNING,
        }),
    }
}

/// What a result says when no scheduler has a fresh heartbeat.
pub const NOT_RUNNING: &str = "saved, but nothing will run it until the Hearth app or \
                               `hearth-cli daemon` is running";

/// The status word for a job that was saved: `scheduled` only when a scheduler is alive.
fn saved_status(scheduler: &Value) -> &'static str {
    if scheduler["running"] == true {
        "scheduled"
    } else {
        "saved_not_scheduled"
    }
}

/// A delivery target from a channel and a chat id, or the current session when both are
/// missing. A chat id already prefixed with its channel is kept as it is.
fn target(
    ctx: &ToolContext,
    channel: Option<&str>,
    chat_id: Option<&str>,
    names: (&'static str, &'static str),
) -> Result<Option<String>, ToolError> {
    let clean = |v: Option<&str>| {
        v.map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    match (clean(channel), clean(chat_id)) {
        (None, None) => Ok(Some(ctx.session_id.clone()).filter(|s| s.contains(':'))),
        (Some(channel), Some(chat)) => Ok(Some(join_target(&channel, &chat))),
        (Some(_), None) => Err(ToolError::invalid(
            names.1,
            format!("`{}` is required with `{}`", names.1, names.0),
        )),
        (None, Some(_)) => Err(ToolError::invalid(
            names.0,
            format!("`{}` is required with `{}`", names.0, names.1),
        )),
    }
}

fn join_target(channel: &str, chat: &str) -> String {
    if chat.starts_with(&format!("{channel}:")) {
        chat.to_string()
    } else {
        format!("{channel}:{chat}")
    }
}

/// `None` for a missing or blank required argument becomes `invalid_arguments`.
fn required(value: Option<String>, field: &str, action: &str) -> Result<String, ToolError> {
    value
        .filter(|v| !v.trim().is_empty())
        .ok_or_else(|| ToolError::invalid(field, format!("`{field}` is required for {action}")))
}

fn tool_error(error: JobError, fields: &Fields) -> ToolError {
    let field = error.field().map(|f| match f {
        "prompt" => fields.prompt,
        "target" => fields.target,
        other => other,
    });
    let message = error.to_string();
    match (&error, field) {
        (JobError::Jobs(JobsError::NotFound(_)), _) => ToolError::new(ErrorKind::NotFound, message),
        (JobError::Jobs(JobsError::TooManyEnabled { .. }), _) => {
            ToolError::new(ErrorKind::NotPermitted, message)
        }
        (JobError::Jobs(JobsError::Store(_)), _) => ToolError::internal(message),
        (_, Some(field)) => ToolError::invalid(field, message),
        (_, None) => ToolError::new(ErrorKind::InvalidArguments, message),
    }
}

/// A view as JSON.
fn view_json(view: &JobView) -> Value {
    serde_json::to_value(view).unwrap_or(Value::Null)
}
