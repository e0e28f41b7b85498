//! The confirmation `cronjob authorize` is asked with: which job, its instruction, how often it
//! runs (schedule in words and the next run) and where its results go.

use hearth_protocol::Confirmation;

use super::{authorizable_tools, Jobs};

impl Jobs {
    /// What the user is asked before job `key` is authorized; when the job cannot be found, the
    /// reason (the call then reports the error itself). The one store read a job tool still
    /// makes on the calling thread: [`crate::Tool::call_facts`], which asks for it, is
    /// synchronous, and the registry prepares calls on an async worker; reading it through the
    /// `Db` needs an async step in preparing a call.
    pub(super) fn authorization_prompt(&self, key: &str) -> Confirmation {
        match self
            .0
            .blocking()
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
