//! A job's authorization: what approving it binds (instruction, frequency with the next runs,
//! target, tools), recording the approval, and withdrawing it.

use hearth_store::Job;

use super::{AuthorizationGrant, BlockingJobs, JobError, JobView};

impl BlockingJobs<'_> {
    /// Records the user's approval of the job as it is now for the high-risk `tools`, and
    /// returns what was approved: instruction, frequency (with the next runs) and target.
    pub fn authorize(&self, key: &str, tools: &[String]) -> Result<AuthorizationGrant, JobError> {
        let job = self.find(key)?;
        let job = self
            .store
            .authorize_job(&job.id, tools, self.now().timestamp_millis())?;
        self.grant(&job, tools)
    }

    /// What authorizing the job for `tools` would bind, recording nothing: for the approval
    /// prompt shown to the user before `authorize`.
    pub fn authorization_request(
        &self,
        key: &str,
        tools: &[String],
    ) -> Result<AuthorizationGrant, JobError> {
        self.grant(&self.find(key)?, tools)
    }

    fn grant(&self, job: &Job, tools: &[String]) -> Result<AuthorizationGrant, JobError> {
        let mut tools = tools.to_vec();
        tools.sort_unstable();
        tools.dedup();
        Ok(AuthorizationGrant {
            instruction: job.prompt.clone(),
            delivery_target: job.target.clone(),
            tools,
            frequency: self.preview_job(job)?,
            job: self.view(job)?,
        })
    }

    /// Withdraws a job's authorization (no confirmation needed).
    pub fn revoke(&self, key: &str) -> Result<JobView, JobError> {
        let job = self.find(key)?;
        let job = self
            .store
            .revoke_job_authorization(&job.id, self.now().timestamp_millis())?;
        self.view(&job)
    }
}
