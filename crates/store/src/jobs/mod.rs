//! Scheduled jobs: create, read, list, edit, enable, delete, authorize; the authorization hash
//! that binds a job's instruction, schedule, zone, target and tool scope.

mod lease;
mod notifications;
mod runs;

use rusqlite::{params, Connection, OptionalExtension, Row, TransactionBehavior};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::{Result, Store, StoreError};

pub use lease::{LeaseOutcome, SchedulerBeat};
pub use notifications::{
    NotificationReservation, NotificationStatus, NOTIFICATIONS_PER_HOUR, NOTIFICATION_WINDOW_MS,
};
pub use runs::{JobRun, RunBegin, RunKind, RunStart, RunStatus};

/// At most this many jobs are enabled at once.
pub const MAX_ENABLED_JOBS: usize = 20;

/// Why a job operation failed.
#[derive(Debug, thiserror::Error)]
pub enum JobsError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("a job named \"{0}\" already exists; job names are unique")]
    NameTaken(String),
    #[error("{limit} jobs are already enabled, the most allowed; disable or delete one first")]
    TooManyEnabled { limit: usize },
    #[error("no job with id or name \"{0}\"")]
    NotFound(String),
}

impl From<rusqlite::Error> for JobsError {
    fn from(error: rusqlite::Error) -> Self {
        JobsError::Store(StoreError::Sqlite(error))
    }
}

/// A stored job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Job {
    pub id: String,
    pub name: String,
    /// Canonical schedule JSON.
    pub schedule: String,
    pub tz: String,
    pub prompt: String,
    pub target: Option<String>,
    pub model: Option<String>,
    pub enabled: bool,
    pub notify: bool,
    pub authorization: Option<Authorization>,
    pub created_at: i64,
    pub updated_at: i64,
    pub last_run_at: Option<i64>,
    pub next_run_at: Option<i64>,
    pub run_requested_at: Option<i64>,
    /// The skill whose runs these are (see the README's "Skills" section), if any.
    pub skill: Option<String>,
}

/// What the user approved, and when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Authorization {
    pub hash: String,
    /// Canonical names of the high-risk tools the job's runs may use.
    pub tools: Vec<String>,
    pub authorized_at: i64,
}

/// Whether a job's runs carry an authorization.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuthorizationState {
    NotAuthorized,
    Authorized,
    /// Authorized once, but the instruction, schedule, zone or target changed since.
    NeedsReapproval,
}

impl AuthorizationState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotAuthorized => "not_authorized",
            Self::Authorized => "authorized",
            Self::NeedsReapproval => "needs_reapproval",
        }
    }
}

impl Job {
    /// The hash an authorization of this job's current fields with `tools` carries.
    pub fn binding_hash(&self, tools: &[String]) -> String {
        authorization_hash(
            &self.prompt,
            &self.schedule,
            &self.tz,
            self.target.as_deref(),
            tools,
        )
    }

    pub fn authorization_state(&self) -> AuthorizationState {
        match &self.authorization {
            None => AuthorizationState::NotAuthorized,
            Some(auth) if auth.hash == self.binding_hash(&auth.tools) => {
                AuthorizationState::Authorized
            }
            Some(_) => AuthorizationState::NeedsReapproval,
        }
    }

    /// The tools a run may use under `daemon` security: `Some` only while the authorization
    /// still matches the job.
    pub fn authorized_tools(&self) -> Option<&[String]> {
        match (&self.authorization, self.authorization_state()) {
            (Some(auth), AuthorizationState::Authorized) => Some(&auth.tools),
            _ => None,
        }
    }
}

/// sha256 over the length-prefixed instruction, schedule, zone, target and sorted tool scope.
pub fn authorization_hash(
    prompt: &str,
    schedule: &str,
    tz: &str,
    target: Option<&str>,
    tools: &[String],
) -> String {
    let mut tools: Vec<&str> = tools.iter().map(String::as_str).collect();
    tools.sort_unstable();
    tools.dedup();
    let scope = tools.join("\n");
    let mut hasher = Sha256::new();
    for part in [prompt, schedule, tz, target.unwrap_or(""), scope.as_str()] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What a new job is made of; ids and timestamps are assigned by the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewJob {
    pub name: String,
    pub schedule: String,
    pub tz: String,
    pub prompt: String,
    pub target: Option<String>,
    pub model: Option<String>,
    pub enabled: bool,
    pub notify: bool,
    pub next_run_at: Option<i64>,
    /// The skill the job's runs are skill runs of.
    pub skill: Option<String>,
}

/// Fields to change; `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JobPatch {
    pub name: Option<String>,
    pub schedule: Option<String>,
    pub tz: Option<String>,
    pub prompt: Option<String>,
    pub target: Option<Option<String>>,
    pub model: Option<Option<String>>,
    pub notify: Option<bool>,
    pub next_run_at: Option<Option<i64>>,
}

const JOB_SELECT: &str = "SELECT id, name, schedule, tz, prompt, target, model, enabled, notify, \
     auth_hash, auth_tools, authorized_at, created_at, updated_at, last_run_at, next_run_at, \
     run_requested_at, skill FROM jobs";

fn job_from_row(row: &Row<'_>) -> rusqlite::Result<Job> {
    let hash: Option<String> = row.get(9)?;
    let tools: Option<String> = row.get(10)?;
    let authorized_at: Option<i64> = row.get(11)?;
    let authorization = match (hash, tools, authorized_at) {
        (Some(hash), Some(tools), Some(authorized_at)) => Some(Authorization {
            hash,
            tools: serde_json::from_str(&tools).map_err(|e| {
                rusqlite::Error::FromSqlConversionFailure(10, rusqlite::types::Type::Text, e.into())
            })?,
            authorized_at,
        }),
        _ => None,
    };
    Ok(Job {
        id: row.get(0)?,
        name: row.get(1)?,
        schedule: row.get(2)?,
        tz: row.get(3)?,
        prompt: row.get(4)?,
        target: row.get(5)?,
        model: row.get(6)?,
        enabled: row.get(7)?,
        notify: row.get(8)?,
        authorization,
        created_at: row.get(12)?,
        updated_at: row.get(13)?,
        last_run_at: row.get(14)?,
        next_run_at: row.get(15)?,
        run_requested_at: row.get(16)?,
        skill: row.get(17)?,
    })
}

pub(crate) fn load(conn: &Connection, id: &str) -> Result<Option<Job>, JobsError> {
    let sql = format!("{JOB_SELECT} WHERE id = ?1");
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([id], job_from_row)
        .optional()?)
}

fn load_existing(conn: &Connection, id: &str) -> Result<Job, JobsError> {
    load(conn, id)?.ok_or_else(|| JobsError::NotFound(id.to_string()))
}

fn check_name_free(conn: &Connection, name: &str, except_id: &str) -> Result<(), JobsError> {
    let taken: Option<String> = conn
        .prepare_cached("SELECT id FROM jobs WHERE name = ?1 AND id <> ?2")?
        .query_row(params![name, except_id], |row| row.get(0))
        .optional()?;
    match taken {
        Some(_) => Err(JobsError::NameTaken(name.to_string())),
        None => Ok(()),
    }
}

fn check_room_to_enable(conn: &Connection, except_id: &str) -> Result<(), JobsError> {
    let enabled: i64 = conn
        .prepare_cached("SELECT COUNT(*) FROM jobs WHERE enabled = 1 AND id <> ?1")?
        .query_row([except_id], |row| row.get(0))?;
    if usize::try_from(enabled).unwrap_or(usize::MAX) >= MAX_ENABLED_JOBS {
        return Err(JobsError::TooManyEnabled {
            limit: MAX_ENABLED_JOBS,
        });
    }
    Ok(())
}

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

    /// Records the user's approval of the job as it is now, for the high-risk `tools`.
    pub fn authorize_job(&self, id: &str, tools: &[String], now: i64) -> Result<Job, JobsError> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let job = load_existing(&tx, id)?;
        let mut tools = tools.to_vec();
        tools.sort_unstable();
        tools.dedup();
        let hash = job.binding_hash(&tools);
        tx.prepare_cached(
            "UPDATE jobs SET auth_hash = ?2, auth_tools = ?3, authorized_at = ?4, \
             updated_at = ?4 WHERE id = ?1",
        )?
        .execute(params![
            id,
            hash,
            serde_json::to_string(&tools).map_err(StoreError::Json)?,
            now
        ])?;
        let job = load_existing(&tx, id)?;
        tx.commit()?;
        Ok(job)
    }

    /// Withdraws a job's authorization.
    pub fn revoke_job_authorization(&self, id: &str, now: i64) -> Result<Job, JobsError> {
        let conn = self.conn();
        let changed = conn
            .prepare_cached(
                "UPDATE jobs SET auth_hash = NULL, auth_tools = NULL, authorized_at = NULL, \
                 updated_at = ?2 WHERE id = ?1",
            )?
            .execute(params![id, now])?;
        if changed == 0 {
            return Err(JobsError::NotFound(id.to_string()));
        }
        load_existing(&conn, id)
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
