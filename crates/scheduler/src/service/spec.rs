//! What callers hand the job service, and why it refuses: a new job, an edit, a listing's
//! filter and the job error.

use hearth_store::JobsError;
use serde::{Deserialize, Serialize};

use crate::schedule::{Schedule, ScheduleError};

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

impl From<ScheduleError> for hearth_protocol::AppError {
    fn from(error: ScheduleError) -> hearth_protocol::AppError {
        hearth_protocol::AppError::BadSchedule {
            message: error.to_string(),
        }
    }
}

impl From<JobError> for hearth_protocol::AppError {
    fn from(error: JobError) -> hearth_protocol::AppError {
        match error {
            JobError::Schedule(error) => error.into(),
            JobError::Invalid { field, message } => hearth_protocol::AppError::InvalidValue {
                field: field.to_string(),
                message,
            },
            JobError::Jobs(error) => error.into(),
        }
    }
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
