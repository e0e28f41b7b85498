//! The confirmation `cronjob authorize` is asked with: which job, its instruction, how often it
//! runs (schedule in words and the next run) and where its results go.

use super::{authorizable_tools, Jobs};

impl Jobs {
    /// What the user is asked before job `key` is authorized; when the job cannot be found, the
    /// reason (the call then reports the error itself).
    pub(super) fn authorization_prompt(&self, key: &str) -> String {
        match self
            .service()
            .authorization_request(key, &authorizable_tools())
        {
            Ok(grant) => {
                let next = grant
                    .frequency
                    .next_runs
                    .first()
                    .map_or("none scheduled".to_string(), Clone::clone);
                format!(
                    "Authorize job \"{name}\" to use high-risk tools ({tools}) in its unattended \
                     runs?\n\
                     Instruction: {instruction}\n\
                     Frequency: {description} ({tz}); next run {next}\n\
                     Delivers to: {target}\n\
                     Any later change to the instruction, schedule, time zone or target voids \
                     this approval.",
                    name = grant.job.name,
                    tools = grant.tools.join(", "),
                    instruction = grant.instruction,
                    description = grant.frequency.description,
                    tz = grant.frequency.tz,
                    target = grant
                        .delivery_target
                        .as_deref()
                        .unwrap_or("the job's own session only"),
                )
            }
            Err(error) => format!("Authorize job \"{key}\"? It cannot be shown: {error}."),
        }
    }
}
