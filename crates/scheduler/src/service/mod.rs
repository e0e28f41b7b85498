//! The job service: the one place jobs are created, edited, enabled, run now, authorized and
//! listed, for the job tools, `hearth-cli jobs` and the desktop alike. It validates input,
//! resolves the zone, computes next runs and wakes an in-process runner.

mod view;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use hearth_store::{Job, JobPatch, JobsError, NewJob, Store};
use serde::{Deserialize, Serialize};

use crate::clock::Clock;
use crate::runner::RunnerSignal;
use crate::schedule::{parse_zone, Plan, Schedule, ScheduleError};

pub use view::{AuthorizationGrant, JobView, Preview, RunView, SchedulerStatus};

/// A scheduler whose heartbeat is older than this is taken for gone.
pub const HEARTBEAT_STALE_MS: i64 = 90_000;
/// How many upcoming runs previews and authorizations show.
pub const PREVIEW_RUNS: usize = 5;

const MAX_NAME_CHARS: usize = 100;
const MAX_PROMPT_CHARS: usize = 20_000;

/// Why a job operation was refused.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    #[error("{0}")]
    Schedule(#[from] ScheduleError),
    #[error("`{field}` {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    #[error(transparent)]
    Jobs(#[from] JobsError),
}

impl JobError {
    /// The argument at fault, for tool errors.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            JobError::Schedule(ScheduleError::Zone(_)) => Some("tz"),
            JobError::Schedule(_) => Some("schedule"),
            JobError::Invalid { field, .. } => Some(field),
            JobError::Jobs(JobsError::NameTaken(_)) => Some("name"),
            JobError::Jobs(_) => None,
        }
    }
}

/// A new job as the user or model describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobSpec {
    pub name: String,
    pub schedule: Schedule,
    /// IANA zone; else the schedule's own, else the service default (the system's zone).
    pub tz: Option<String>,
    /// The self-contained instruction each run starts from.
    pub prompt: String,
    /// `<channel>:<chat_id>` (a desktop session id is `desktop:<uuid>`).
    pub target: Option<String>,
    pub model: Option<String>,
    pub enabled: bool,
    pub notify: bool,
    /// The skill whose runs the job's runs are (its instructions, dialect and permissions).
    pub skill: Option<String>,
}

/// Fields to change; `None` keeps a field.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JobEdit {
    pub name: Option<String>,
    pub schedule: Option<Schedule>,
    pub tz: Option<String>,
    pub prompt: Option<String>,
    pub target: Option<Option<String>>,
    pub model: Option<Option<String>>,
    pub notify: Option<bool>,
}

/// Which jobs a listing shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobFilter {
    #[default]
    All,
    Enabled,
    Disabled,
}

/// Jobs over the store, with a clock for "now" and an optional in-process runner to wake.
#[derive(Clone)]
pub struct JobService {
    store: Arc<Store>,
    clock: Arc<dyn Clock>,
    default_zone: Tz,
    signal: Option<RunnerSignal>,
}

impl JobService {
    pub fn new(store: Arc<Store>, clock: Arc<dyn Clock>, default_zone: Tz) -> JobService {
        JobService {
            store,
            clock,
            default_zone,
            signal: None,
        }
    }

    /// Wakes this runner after every change (runners in other processes notice within 30 s).
    pub fn with_signal(mut self, signal: RunnerSignal) -> JobService {
        self.signal = Some(signal);
        self
    }

    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    fn wake(&self) {
        if let Some(signal) = &self.signal {
            signal.wake();
        }
    }

    /// Creates a job; enabled jobs get their first run computed from now.
    pub fn create(&self, spec: JobSpec) -> Result<JobView, JobError> {
        let name = check_name(&spec.name)?;
        let prompt = check_prompt(&spec.prompt)?;
        let target = spec.target.as_deref().map(check_target).transpose()?;
        let zone = self.zone_for(spec.tz.as_deref(), &spec.schedule)?;
        let plan = Plan::new(&spec.schedule, zone)?;
        let now = self.now();
        plan.check(now)?;
        let new = NewJob {
            name,
            schedule: spec.schedule.without_zone().to_json_string(),
            tz: zone.name().to_string(),
            prompt,
            target,
            model: clean(spec.model),
            enabled: spec.enabled,
            notify: spec.notify,
            next_run_at: spec
                .enabled
                .then(|| plan.next_after(now))
                .flatten()
                .map(|t| t.timestamp_millis()),
            skill: clean(spec.skill),
        };
        let job = self.store.create_job(&new, now.timestamp_millis())?;
        self.wake();
        self.view(&job)
    }

    /// Edits a job. Changing the instruction, schedule, zone or target leaves an existing
    /// authorization unmatched: the job then needs re-approval.
    pub fn edit(&self, key: &str, edit: JobEdit) -> Result<JobView, JobError> {
        let job = self.find(key)?;
        let mut patch = JobPatch {
            name: edit.name.as_deref().map(check_name).transpose()?,
            prompt: edit.prompt.as_deref().map(check_prompt).transpose()?,
            target: edit
                .target
                .map(|t| t.as_deref().map(check_target).transpose())
                .transpose()?,
            model: edit.model.map(clean),
            notify: edit.notify,
            ..JobPatch::default()
        };
        if edit.schedule.is_some() || edit.tz.is_some() {
            let schedule = match &edit.schedule {
                Some(schedule) => schedule.clone(),
                None => stored_schedule(&job)?,
            };
            // A new schedule without a zone of its own stays in the job's zone.
            let tz = edit
                .tz
                .as_deref()
                .or(edit.schedule.as_ref().and_then(Schedule::zone))
                .or(Some(job.tz.as_str()));
            let zone = self.zone_for(tz, &schedule)?;
            let plan = Plan::new(&schedule, zone)?;
            let now = self.now();
            plan.check(now)?;
            patch.schedule = Some(schedule.without_zone().to_json_string());
            patch.tz = Some(zone.name().to_string());
            patch.next_run_at = Some(
                job.enabled
                    .then(|| plan.next_after(now))
                    .flatten()
                    .map(|t| t.timestamp_millis()),
            );
        }
        let job = self
            .store
            .update_job(&job.id, &patch, self.now().timestamp_millis())?;
        self.wake();
        self.view(&job)
    }

    /// Enables (next run recomputed from now; at most 20 enabled) or disables a job.
    pub fn set_enabled(&self, key: &str, enabled: bool) -> Result<JobView, JobError> {
        let job = self.find(key)?;
        let now = self.now();
        let next = if enabled {
            let plan = self.plan(&job)?;
            plan.check(now)?;
            plan.next_after(now).map(|t| t.timestamp_millis())
        } else {
            None
        };
        let job = self
            .store
            .set_job_enabled(&job.id, enabled, next, now.timestamp_millis())?;
        self.wake();
        self.view(&job)
    }

    /// Deletes a job and its history; returns what it was.
    pub fn delete(&self, key: &str) -> Result<JobView, JobError> {
        let job = self.find(key)?;
        let view = self.view(&job)?;
        self.store.delete_job(&job.id)?;
        self.wake();
        Ok(view)
    }

    /// Asks the runner to run the job now (once, besides its schedule).
    pub fn trigger(&self, key: &str) -> Result<JobView, JobError> {
        let job = self.find(key)?;
        let job = self
            .store
            .request_job_run(&job.id, self.now().timestamp_millis())?;
        self.wake();
        self.view(&job)
    }

    /// Records the user's approval of the job as it is now for the high-risk `tools`, and
    /// returns what was approved: instruction, frequency (with the next runs) and target.
    pub fn authorize(&self, key: &str, tools: &[String]) -> Result<AuthorizationGrant, JobError> {
        let job = self.find(key)?;
        let job = self
            .store
            .authorize_job(&job.id, tools, self.now().timestamp_millis())?;
        self.grant(&job, tools)
    }

    /// What authorizing the job for `tools` would bind, recording nothing: for the approval
    /// prompt shown to the user before `authorize`.
    pub fn authorization_request(
        &self,
        key: &str,
        tools: &[String],
    ) -> Result<AuthorizationGrant, JobError> {
        self.grant(&self.find(key)?, tools)
    }

    fn grant(&self, job: &Job, tools: &[String]) -> Result<AuthorizationGrant, JobError> {
        let mut tools = tools.to_vec();
        tools.sort_unstable();
        tools.dedup();
        Ok(AuthorizationGrant {
            instruction: job.prompt.clone(),
            delivery_target: job.target.clone(),
            tools,
            frequency: self.preview_job(job)?,
            job: self.view(job)?,
        })
    }

    /// The upcoming runs of a saved job.
    pub fn upcoming(&self, key: &str) -> Result<Preview, JobError> {
        self.preview_job(&self.find(key)?)
    }

    /// Withdraws a job's authorization (no confirmation needed).
    pub fn revoke(&self, key: &str) -> Result<JobView, JobError> {
        let job = self.find(key)?;
        let job = self
            .store
            .revoke_job_authorization(&job.id, self.now().timestamp_millis())?;
        self.view(&job)
    }

    pub fn get(&self, key: &str) -> Result<JobView, JobError> {
        self.view(&self.find(key)?)
    }

    /// The stored job with id or name `key`.
    pub fn find(&self, key: &str) -> Result<Job, JobError> {
        self.store
            .find_job(key.trim())?
            .ok_or_else(|| JobError::Jobs(JobsError::NotFound(key.to_string())))
    }

    pub fn list(&self, filter: JobFilter) -> Result<Vec<JobView>, JobError> {
        self.store
            .list_jobs()?
            .iter()
            .filter(|job| match filter {
                JobFilter::All => true,
                JobFilter::Enabled => job.enabled,
                JobFilter::Disabled => !job.enabled,
            })
            .map(|job| self.view(job))
            .collect()
    }

    /// A job's most recent runs, newest first.
    pub fn history(&self, key: &str, limit: usize) -> Result<Vec<RunView>, JobError> {
        let job = self.find(key)?;
        let zone = parse_zone(&job.tz)?;
        Ok(self
            .store
            .list_job_runs(&job.id, limit)?
            .into_iter()
            .map(|run| RunView::new(run, zone))
            .collect())
    }

    /// The next runs of a schedule that is not saved yet (the desktop's live preview).
    pub fn preview(&self, schedule: &Schedule, tz: Option<&str>) -> Result<Preview, JobError> {
        let zone = self.zone_for(tz, schedule)?;
        let plan = Plan::new(schedule, zone)?;
        plan.check(self.now())?;
        let stored = serde_json::to_value(schedule).unwrap_or(serde_json::Value::Null);
        Ok(Preview::new(&plan, stored, self.now()))
    }

    /// Whether a scheduler (the app or `hearth-cli daemon`) has beaten its heart recently.
    pub fn scheduler_status(&self) -> Result<SchedulerStatus, JobError> {
        let beat = self.store.scheduler_status()?;
        Ok(SchedulerStatus::new(
            beat,
            self.now().timestamp_millis(),
            HEARTBEAT_STALE_MS,
        ))
    }

    fn zone_for(&self, tz: Option<&str>, schedule: &Schedule) -> Result<Tz, JobError> {
        match tz.or(schedule.zone()) {
            Some(name) => Ok(parse_zone(name)?),
            None => Ok(self.default_zone),
        }
    }

    fn plan(&self, job: &Job) -> Result<Plan, JobError> {
        Ok(Plan::new(&stored_schedule(job)?, parse_zone(&job.tz)?)?)
    }

    fn preview_job(&self, job: &Job) -> Result<Preview, JobError> {
        let stored = serde_json::from_str(&job.schedule).unwrap_or(serde_json::Value::Null);
        Ok(Preview::new(&self.plan(job)?, stored, self.now()))
    }

    fn view(&self, job: &Job) -> Result<JobView, JobError> {
        let plan = self.plan(job)?;
        let last = self.store.list_job_runs(&job.id, 1)?.into_iter().next();
        Ok(JobView::new(job, &plan, last))
    }
}

/// The schedule a stored job holds.
pub fn stored_schedule(job: &Job) -> Result<Schedule, JobError> {
    let value: serde_json::Value = serde_json::from_str(&job.schedule)
        .map_err(|e| JobError::Schedule(ScheduleError::Json(e.to_string())))?;
    Ok(Schedule::from_json(value)?)
}

fn check_name(name: &str) -> Result<String, JobError> {
    let name = name.trim();
    let invalid = |message: &str| JobError::Invalid {
        field: "name",
        message: message.to_string(),
    };
    if name.is_empty() {
        return Err(invalid("must not be empty"));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(invalid(&format!(
            "is longer than {MAX_NAME_CHARS} characters"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(invalid("must not contain control characters"));
    }
    Ok(name.to_string())
}

fn check_prompt(prompt: &str) -> Result<String, JobError> {
    let prompt = prompt.trim();
    let invalid = |message: String| JobError::Invalid {
        field: "prompt",
        message,
    };
    if prompt.is_empty() {
        return Err(invalid(
            "must not be empty: each run starts from it alone".into(),
        ));
    }
    if prompt.chars().count() > MAX_PROMPT_CHARS {
        return Err(invalid(format!(
            "is longer than {MAX_PROMPT_CHARS} characters"
        )));
    }
    Ok(prompt.to_string())
}

/// `<channel>:<chat_id>[:<dialog_id>]` with a non-empty channel and chat id.
fn check_target(target: &str) -> Result<String, JobError> {
    let target = target.trim();
    let valid_channel = |channel: &str| {
        channel
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    match target.split_once(':') {
        Some((channel, chat))
            if !channel.is_empty() && !chat.is_empty() && valid_channel(channel) =>
        {
            return Ok(target.to_string());
        }
        _ => {}
    }
    Err(JobError::Invalid {
        field: "target",
        message: format!(
            "`{target}` is not a delivery target: expected <channel>:<chat_id>, such as \
             desktop:<session uuid>"
        ),
    })
}

fn clean(value: Option<String>) -> Option<String> {
    value
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}
