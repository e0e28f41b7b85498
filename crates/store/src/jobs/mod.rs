//! Scheduled jobs: create, read, list, edit, enable, delete and run now; the job itself, its
//! authorization, its rows, runs, lease and notifications are the modules below.

mod authorization;
mod job;
mod lease;
mod notifications;
mod rows;
mod runs;

use rusqlite::{params, OptionalExtension, TransactionBehavior};

use crate::Store;
use rows::{check_name_free, check_room_to_enable, job_from_row, load, load_existing, JOB_SELECT};

pub use authorization::{authorization_hash, Authorization, AuthorizationState};
pub use job::{Job, JobPatch, JobsError, NewJob};
pub use lease::{LeaseOutcome, SchedulerBeat};
pub use notifications::{
    NotificationReservation, NotificationStatus, NOTIFICATIONS_PER_HOUR, NOTIFICATION_WINDOW_MS,
};
pub use runs::{JobRun, RunBegin, RunKind, RunStart, RunStatus};

/// At most this many jobs are enabled at once.
pub const MAX_ENABLED_JOBS: usize = 20;

impl Store {
    /// Creates a job under a fresh id; refuses a taken name and a 21st enabled job.
    pub fn create_job(&self, new: &NewJob, now: i64) -> Result<Job, JobsError> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let id = format!("job_{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
        check_name_free(&tx, &new.name, &id)?;
        if new.enabled {
            check_room_to_enable(&tx, &id)?;
        }
        tx.prepare_cached(
            "INSERT INTO jobs (id, name, schedule, tz, prompt, target, model, enabled, notify, \
             created_at, updated_at, next_run_at, skill) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11, ?12)",
        )?
        .execute(params![
            id,
            new.name,
            new.schedule,
            new.tz,
            new.prompt,
            new.target,
            new.model,
            new.enabled,
            new.notify,
            now,
            new.next_run_at,
            new.skill
        ])?;
        let job = load_existing(&tx, &id)?;
        tx.commit()?;
        Ok(job)
    }

    pub fn get_job(&self, id: &str) -> Result<Option<Job>, JobsError> {
        load(&self.conn(), id)
    }

    /// The job with id `key`, else the one named `key` (names compare case-insensitively).
    pub fn find_job(&self, key: &str) -> Result<Option<Job>, JobsError> {
        let conn = self.conn();
        if let Some(job) = load(&conn, key)? {
            return Ok(Some(job));
        }
        let sql = format!("{JOB_SELECT} WHERE name = ?1");
        let job = conn
            .prepare_cached(&sql)?
            .query_row([key], job_from_row)
            .optional()?;
        Ok(job)
    }

    /// Every job, by name.
    pub fn list_jobs(&self) -> Result<Vec<Job>, JobsError> {
        let conn = self.conn();
        let sql = format!("{JOB_SELECT} ORDER BY name COLLATE NOCASE");
        let mut stmt = conn.prepare_cached(&sql)?;
        let jobs = stmt
            .query_map([], job_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(jobs)
    }

    /// Applies `patch`. The authorization is kept as it was: if the instruction, schedule,
    /// zone or target changed, it no longer matches and the job needs re-approval.
    pub fn update_job(&self, id: &str, patch: &JobPatch, now: i64) -> Result<Job, JobsError> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut job = load_existing(&tx, id)?;
        if let Some(name) = &patch.name {
            check_name_free(&tx, name, id)?;
            job.name.clone_from(name);
        }
        macro_rules! apply {
            ($($field:ident),*) => {$(
                if let Some(value) = &patch.$field {
                    job.$field = value.clone();
                }
            )*};
        }
        apply!(schedule, tz, prompt, target, model, notify, next_run_at);
        tx.prepare_cached(
            "UPDATE jobs SET name = ?2, schedule = ?3, tz = ?4, prompt = ?5, target = ?6, \
             model = ?7, notify = ?8, next_run_at = ?9, updated_at = ?10 WHERE id = ?1",
        )?
        .execute(params![
            id,
            job.name,
            job.schedule,
            job.tz,
            job.prompt,
            job.target,
            job.model,
            job.notify,
            job.next_run_at,
            now
        ])?;
        let job = load_existing(&tx, id)?;
        tx.commit()?;
        Ok(job)
    }

    /// Enables (refusing a 21st enabled job) or disables a job, setting its next run.
    pub fn set_job_enabled(
        &self,
        id: &str,
        enabled: bool,
        next_run_at: Option<i64>,
        now: i64,
    ) -> Result<Job, JobsError> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        load_existing(&tx, id)?;
        if enabled {
            check_room_to_enable(&tx, id)?;
        }
        tx.prepare_cached(
            "UPDATE jobs SET enabled = ?2, next_run_at = ?3, updated_at = ?4 WHERE id = ?1",
        )?
        .execute(params![id, enabled, next_run_at, now])?;
        let job = load_existing(&tx, id)?;
        tx.commit()?;
        Ok(job)
    }

    /// Deletes a job and its run history.
    pub fn delete_job(&self, id: &str) -> Result<(), JobsError> {
        match self
            .conn()
            .prepare_cached("DELETE FROM jobs WHERE id = ?1")?
            .execute([id])?
        {
            0 => Err(JobsError::NotFound(id.to_string())),
            _ => Ok(()),
        }
    }

    /// Asks the runner to run the job as soon as it can ("run now"), enabled or not.
    pub fn request_job_run(&self, id: &str, now: i64) -> Result<Job, JobsError> {
        let conn = self.conn();
        let changed = conn
            .prepare_cached("UPDATE jobs SET run_requested_at = ?2 WHERE id = ?1")?
            .execute(params![id, now])?;
        if changed == 0 {
            return Err(JobsError::NotFound(id.to_string()));
        }
        load_existing(&conn, id)
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
