//! What listings show: jobs with their next run as RFC 3339 in the job's zone (with its UTC
//! offset), runs, schedule previews, authorization grants and the scheduler's liveness.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use hearth_protocol::{AppError, JobAuthorization};
use hearth_store::{AuthorizationState, Job, JobRun, RunStatus, SchedulerBeat};
use serde::Serialize;

use super::PREVIEW_RUNS;
use crate::schedule::{format_in_zone, Plan};
use ts_rs::TS;

/// `ms` as RFC 3339 in `tz` (`None` stays `None`).
fn time(ms: Option<i64>, tz: Tz) -> Option<String> {
    ms.and_then(DateTime::<Utc>::from_timestamp_millis)
        .map(|t| format_in_zone(t, tz))
}

/// A job as listings show it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct JobView {
    pub id: String,
    pub name: String,
    /// The schedule as stored (`{"type": "cron", …}`).
    #[ts(as = "crate::Schedule")]
    pub schedule: serde_json::Value,
    pub schedule_description: String,
    pub tz: String,
    pub prompt: String,
    pub target: Option<String>,
    pub model: Option<String>,
    pub enabled: bool,
    pub notify: bool,
    /// `not_authorized`, `authorized` or `needs_reapproval`.
    pub authorization: AuthorizationState,
    /// High-risk tools the runs may use (only while authorized).
    pub authorized_tools: Vec<String>,
    pub authorized_at: Option<String>,
    /// RFC 3339 in the job's zone, with its offset; `None` when disabled or finished.
    pub next_run: Option<String>,
    pub last_run: Option<String>,
    pub last_status: Option<RunStatus>,
    pub run_requested: bool,
    pub created_at: Option<String>,
    /// The skill the runs are skill runs of.
    pub skill: Option<String>,
}

impl JobView {
    pub(super) fn new(job: &Job, plan: &Plan, last: Option<JobRun>) -> JobView {
        let tz = plan.zone();
        JobView {
            id: job.id.clone(),
            name: job.name.clone(),
            schedule: serde_json::from_str(&job.schedule).unwrap_or(serde_json::Value::Null),
            schedule_description: plan.describe(),
            tz: job.tz.clone(),
            prompt: job.prompt.clone(),
            target: job.target.clone(),
            model: job.model.clone(),
            enabled: job.enabled,
            notify: job.notify,
            authorization: job.authorization_state(),
            authorized_tools: job
                .authorized_tools()
                .map(<[String]>::to_vec)
                .unwrap_or_default(),
            authorized_at: time(job.authorization.as_ref().map(|a| a.authorized_at), tz),
            next_run: time(job.next_run_at.filter(|_| job.enabled), tz),
            last_run: time(job.last_run_at, tz),
            last_status: last.map(|run| run.status),
            run_requested: job.run_requested_at.is_some(),
            created_at: time(Some(job.created_at), tz),
            skill: job.skill.clone(),
        }
    }
}

/// One run of a job's history.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct RunView {
    pub id: i64,
    pub status: RunStatus,
    pub catch_up: bool,
    pub manual: bool,
    pub authorized: bool,
    pub scheduled_for: Option<String>,
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
    pub output: Option<String>,
    pub error: Option<String>,
    /// The typed form of `error` (the UI shows it in its language); `None` on older runs.
    pub error_code: Option<AppError>,
}

impl RunView {
    pub(super) fn new(run: JobRun, tz: Tz) -> RunView {
        RunView {
            id: run.id,
            status: run.status,
            catch_up: run.catch_up,
            manual: run.manual,
            authorized: run.authorized,
            scheduled_for: time(run.scheduled_for, tz),
            started_at: time(Some(run.started_at), tz),
            finished_at: time(run.finished_at, tz),
            output: run.output,
            error: run.error,
            error_code: run.error_code,
        }
    }
}

/// A schedule's description and next runs.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct Preview {
    /// The schedule as stored (`{"type": "cron", …}`), so the UI can describe it in its language.
    #[ts(as = "crate::Schedule")]
    pub schedule: serde_json::Value,
    pub description: String,
    pub tz: String,
    /// RFC 3339 with the zone's offset.
    pub next_runs: Vec<String>,
}

impl Preview {
    pub(super) fn new(plan: &Plan, schedule: serde_json::Value, now: DateTime<Utc>) -> Preview {
        Preview {
            schedule,
            description: plan.describe(),
            tz: plan.zone().name().to_string(),
            next_runs: plan
                .next_runs(now, PREVIEW_RUNS)
                .iter()
                .map(|t| format_in_zone(t.with_timezone(&Utc), plan.zone()))
                .collect(),
        }
    }
}

/// What an authorization binds, shown to the user when it is granted.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct AuthorizationGrant {
    pub instruction: String,
    pub frequency: Preview,
    pub delivery_target: Option<String>,
    pub tools: Vec<String>,
    pub job: JobView,
}

impl AuthorizationGrant {
    /// What the user is asked before the grant is recorded (in the chat and on the terminal):
    /// the job, its tools, instruction, frequency (in words, with the next run) and target.
    pub fn question(&self) -> JobAuthorization {
        JobAuthorization {
            job: self.job.name.clone(),
            tools: self.tools.clone(),
            instruction: self.instruction.clone(),
            schedule: self.frequency.schedule.clone(),
            schedule_description: self.frequency.description.clone(),
            tz: self.frequency.tz.clone(),
            next_run: self.frequency.next_runs.first().cloned(),
            delivers_to: self.delivery_target.clone(),
        }
    }
}

/// Whether any scheduler is alive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SchedulerStatus {
    pub alive: bool,
    pub pid: Option<i64>,
    /// Unix ms of the last heartbeat.
    pub last_beat_at: Option<i64>,
}

impl SchedulerStatus {
    pub(super) fn new(beat: Option<SchedulerBeat>, now: i64, stale_ms: i64) -> SchedulerStatus {
        SchedulerStatus {
            alive: beat.as_ref().is_some_and(|b| now - b.beat_at < stale_ms),
            pid: beat.as_ref().map(|b| b.pid),
            last_beat_at: beat.map(|b| b.beat_at),
        }
    }
}
