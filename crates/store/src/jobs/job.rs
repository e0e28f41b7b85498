//! A stored job, what a new one is made of and what an edit changes, and why a job operation
//! fails.

use serde::Serialize;

use super::Authorization;
use crate::StoreError;

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

impl From<crate::DbError> for JobsError {
    fn from(error: crate::DbError) -> JobsError {
        JobsError::Store(StoreError::Db(error))
    }
}

impl From<JobsError> for hearth_protocol::AppError {
    fn from(error: JobsError) -> hearth_protocol::AppError {
        use hearth_protocol::AppError;
        match error {
            JobsError::Store(error) => AppError::from(error),
            JobsError::NotFound(id) => AppError::NotFound {
                what: "job".to_string(),
                id,
            },
            refused @ (JobsError::NameTaken(_) | JobsError::TooManyEnabled { .. }) => {
                AppError::JobRejected {
                    message: refused.to_string(),
                }
            }
        }
    }
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
