//! The confirmation `cronjob authorize` is asked with: which job, its instruction, how often it
//! runs (schedule in words and the next run) and where its results go.

use hearth_protocol::Confirmation;

use super::{authorizable_tools, Jobs};

impl Jobs {
    /// What the user is asked before job `key` is authorized; when the job cannot be found, the
    /// reason (the call then reports the error itself).
    pub(super) fn authorization_prompt(&self, key: &str) -> Confirmation {
        match self
            .service()
            .authorization_request(key, &authorizable_tools())
        {
            Ok(grant) => Confirmation::AuthorizeJob(Box::new(grant.question())),
            Err(error) => Confirmation::AuthorizeUnknownJob {
                job: key.to_string(),
                error: error.to_string(),
            },
        }
    }
}
