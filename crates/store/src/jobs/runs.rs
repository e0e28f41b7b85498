//! Job runs: which jobs are due, claiming a run (at most one in progress per job; a due run
//! that would overlap is recorded as `skipped_overlap`), finishing it, and the run history.

use hearth_protocol::AppError;
use rusqlite::{params, OptionalExtension, Row, TransactionBehavior};
use serde::{Deserialize, Serialize};

use super::rows::{job_from_row, load_existing, JOB_SELECT};
use super::{Job, JobsError};
use crate::messages::{enum_column, json_column, optional_json};
use crate::Store;
use ts_rs::TS;

/// Where a run stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    Running,
    Ok,
    Failed,
    /// Due while the previous run of the same job was still going; not run.
    SkippedOverlap,
}

impl RunStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Running => "running",
            Self::Ok => "ok",
            Self::Failed => "failed",
            Self::SkippedOverlap => "skipped_overlap",
        }
    }

    fn parse(value: &str) -> Option<RunStatus> {
        [Self::Running, Self::Ok, Self::Failed, Self::SkippedOverlap]
            .into_iter()
            .find(|s| s.as_str() == value)
    }
}

/// One entry of a job's run history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct JobRun {
    pub id: i64,
    pub job_id: String,
    /// The fire time this run answers (`None` for a "run now").
    pub scheduled_for: Option<i64>,
    pub started_at: i64,
    pub finished_at: Option<i64>,
    pub status: RunStatus,
    /// Run late, once, for fire times missed while nothing was running the scheduler.
    pub catch_up: bool,
    /// Started by "run now" rather than the schedule.
    pub manual: bool,
    /// Whether the run carried a valid job authorization.
    pub authorized: bool,
    pub output: Option<String>,
    pub error: Option<String>,
    /// The typed form of `error`, shown in the viewer's language (`None` on older rows).
    pub error_code: Option<AppError>,
}

/// Why a run starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunKind {
    /// The schedule's fire time `due` came; `next` is the fire time after this run (`None`:
    /// the schedule is finished and the job is disabled).
    Scheduled {
        due: i64,
        next: Option<i64>,
        catch_up: bool,
    },
    /// "Run now".
    Manual,
}

/// A request to start a run of `job_id` at `now`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunStart {
    pub job_id: String,
    pub kind: RunKind,
    pub authorized: bool,
    pub now: i64,
}

/// What [`Store::begin_job_run`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunBegin {
    /// The run is recorded as running; execute it, then call [`Store::finish_job_run`].
    Started { run_id: i64, job: Box<Job> },
    /// The previous run is still going: recorded as `skipped_overlap`, schedule advanced.
    SkippedOverlap { run_id: i64 },
    /// Someone else already handled this fire time (or request); nothing was done.
    Stale,
}

const RUN_SELECT: &str = "SELECT id, job_id, scheduled_for, started_at, finished_at, status, \
     catch_up, manual, authorized, output, error, error_code FROM job_runs";

fn run_from_row(row: &Row<'_>) -> rusqlite::Result<JobRun> {
    Ok(JobRun {
        id: row.get(0)?,
        job_id: row.get(1)?,
        scheduled_for: row.get(2)?,
        started_at: row.get(3)?,
        finished_at: row.get(4)?,
        status: enum_column(row, 5, RunStatus::parse)?,
        catch_up: row.get(6)?,
        manual: row.get(7)?,
        authorized: row.get(8)?,
        output: row.get(9)?,
        error: row.get(10)?,
        error_code: json_column(row, 11)?,
    })
}

impl Store {
    /// Jobs with work at `now`: enabled ones whose next run is due, and any with a "run now"
    /// request. Ordered by due time.
    pub fn due_jobs(&self, now: i64) -> Result<Vec<Job>, JobsError> {
        let conn = self.conn();
        let sql = format!(
            "{JOB_SELECT} WHERE (enabled = 1 AND next_run_at <= ?1) OR run_requested_at IS NOT \
             NULL ORDER BY MIN(COALESCE(next_run_at, ?1), COALESCE(run_requested_at, ?1))"
        );
        let mut stmt = conn.prepare_cached(&sql)?;
        let jobs = stmt
            .query_map([now], job_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(jobs)
    }

    /// The earliest time anything is due: the first enabled next run or a pending "run now".
    pub fn next_wake_at(&self) -> Result<Option<i64>, JobsError> {
        let conn = self.conn();
        let at: Option<i64> = conn
            .prepare_cached(
                "SELECT MIN(t) FROM (SELECT next_run_at AS t FROM jobs WHERE enabled = 1 \
                 UNION ALL SELECT run_requested_at FROM jobs)",
            )?
            .query_row([], |row| row.get(0))?;
        Ok(at)
    }

    /// Claims a run in one transaction: checks the fire time (or request) is still pending,
    /// advances the schedule, and records the run as running — or as `skipped_overlap` when a
    /// run of the job is still in progress.
    pub fn begin_job_run(&self, start: &RunStart) -> Result<RunBegin, JobsError> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let job = load_existing(&tx, &start.job_id)?;
        let pending = match start.kind {
            RunKind::Scheduled { due, .. } => job.enabled && job.next_run_at == Some(due),
            RunKind::Manual => job.run_requested_at.is_some(),
        };
        if !pending {
            return Ok(RunBegin::Stale);
        }
        match start.kind {
            RunKind::Scheduled { next, .. } => tx
                .prepare_cached(
                    "UPDATE jobs SET next_run_at = ?2, enabled = (?2 IS NOT NULL) WHERE id = ?1",
                )?
                .execute(params![start.job_id, next])?,
            RunKind::Manual => tx
                .prepare_cached("UPDATE jobs SET run_requested_at = NULL WHERE id = ?1")?
                .execute([&start.job_id])?,
        };
        let running: Option<i64> = tx
            .prepare_cached("SELECT id FROM job_runs WHERE job_id = ?1 AND status = 'running'")?
            .query_row([&start.job_id], |row| row.get(0))
            .optional()?;
        let (scheduled_for, catch_up, manual) = match start.kind {
            RunKind::Scheduled { due, catch_up, .. } => (Some(due), catch_up, false),
            RunKind::Manual => (None, false, true),
        };
        let (status, finished_at) = match running {
            Some(_) => (RunStatus::SkippedOverlap, Some(start.now)),
            None => (RunStatus::Running, None),
        };
        tx.prepare_cached(
            "INSERT INTO job_runs (job_id, scheduled_for, started_at, finished_at, status, \
             catch_up, manual, authorized) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?
        .execute(params![
            start.job_id,
            scheduled_for,
            start.now,
            finished_at,
            status.as_str(),
            catch_up,
            manual,
            start.authorized && running.is_none()
        ])?;
        let run_id = tx.last_insert_rowid();
        if running.is_none() {
            tx.prepare_cached("UPDATE jobs SET last_run_at = ?2 WHERE id = ?1")?
                .execute(params![start.job_id, start.now])?;
        }
        let job = load_existing(&tx, &start.job_id)?;
        tx.commit()?;
        Ok(match running {
            Some(_) => RunBegin::SkippedOverlap { run_id },
            None => RunBegin::Started {
                run_id,
                job: Box::new(job),
            },
        })
    }

    /// Records how a running run ended (`Ok` or `Failed`); a failure is its English text and
    /// its typed error.
    pub fn finish_job_run(
        &self,
        run_id: i64,
        status: RunStatus,
        output: Option<&str>,
        error: Option<(&str, &AppError)>,
        now: i64,
    ) -> Result<(), JobsError> {
        let code = optional_json(error.map(|(_, code)| code))?;
        let changed = self
            .conn()
            .prepare_cached(
                "UPDATE job_runs SET status = ?2, output = ?3, error = ?4, finished_at = ?5, \
                 error_code = ?6 WHERE id = ?1 AND status = 'running'",
            )?
            .execute(params![
                run_id,
                status.as_str(),
                output,
                error.map(|(text, _)| text),
                now,
                code
            ])?;
        match changed {
            0 => Err(JobsError::NotFound(format!("running run {run_id}"))),
            _ => Ok(()),
        }
    }

    /// Marks every run still recorded as running as failed with `reason` (runs a stopped or
    /// crashed scheduler left behind). Returns how many there were.
    pub fn interrupt_running_runs(&self, reason: &AppError, now: i64) -> Result<usize, JobsError> {
        Ok(self
            .conn()
            .prepare_cached(
                "UPDATE job_runs SET status = 'failed', error = ?1, finished_at = ?2, \
                 error_code = ?3 WHERE status = 'running'",
            )?
            .execute(params![
                reason.to_string(),
                now,
                optional_json(Some(reason))?
            ])?)
    }

    /// A job's most recent runs, newest first.
    pub fn list_job_runs(&self, job_id: &str, limit: usize) -> Result<Vec<JobRun>, JobsError> {
        let conn = self.conn();
        let sql = format!("{RUN_SELECT} WHERE job_id = ?1 ORDER BY id DESC LIMIT ?2");
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut stmt = conn.prepare_cached(&sql)?;
        let runs = stmt
            .query_map(params![job_id, limit], run_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(runs)
    }
}
