//! The confirmation `cronjob authorize` is asked with: which job, its instruction, how often it
//! runs (schedule in words and the next run) and where its results go.

use hearth_protocol::Confirmation;

use super::{authorizable_tools, Jobs};

impl Jobs {
    /// What the user is asked before job `key` is authorized, read through the store's `Db`;
    /// when the job cannot be found, the reason (the call then reports the error itself).
    pub(super) async fn authorization_prompt(&self, key: &str) -> Confirmation {
        let job = key.to_string();
        let request = self
            .0
            .read(move |jobs| jobs.authorization_request(&job, &authorizable_tools()))
            .await;
        match request {
            Ok(grant) => Confirmation::AuthorizeJob(Box::new(grant.question())),
            Err(error) => Confirmation::AuthorizeUnknownJob {
                job: key.to_string(),
                error: error.to_string(),
            },
        }
    }
}
