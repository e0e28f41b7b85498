//! The checks input goes through before the job service stores it (name, prompt, delivery
//! target, optional text), and the schedule a stored job holds.

use hearth_store::Job;

use super::JobError;
use crate::schedule::{Schedule, ScheduleError};

const MAX_NAME_CHARS: usize = 100;
const MAX_PROMPT_CHARS: usize = 20_000;

/// The schedule a stored job holds.
pub fn stored_schedule(job: &Job) -> Result<Schedule, JobError> {
    let value: serde_json::Value = serde_json::from_str(&job.schedule)
        .map_err(|e| JobError::Schedule(ScheduleError::Json(e.to_string())))?;
    Ok(Schedule::from_json(value)?)
}

pub(super) fn check_name(name: &str) -> Result<String, JobError> {
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

pub(super) fn check_prompt(prompt: &str) -> Result<String, JobError> {
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
pub(super) fn check_target(target: &str) -> Result<String, JobError> {
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

pub(super) fn clean(value: Option<String>) -> Option<String> {
    value
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}
