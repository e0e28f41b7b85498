//! What a job run may do under `daemon` security: the high-risk tools its authorization covers
//! (none when it has none or when the job changed since it was approved), and what a refusal
//! tells the model and the user.

use std::collections::HashSet;

use hearth_protocol::{JobGrantNote, JobGrantState};
use hearth_store::{AuthorizationState, Job};

/// The authorization a job run carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobGrant {
    pub job_name: String,
    /// High-risk tools the run may use; `None`: no valid authorization.
    pub tools: Option<HashSet<String>>,
    pub state: AuthorizationState,
}

impl JobGrant {
    /// The grant of a run of `job` whose runner found `authorized_tools` valid.
    pub fn new(job: &Job, authorized_tools: Option<&[String]>) -> JobGrant {
        JobGrant {
            job_name: job.name.clone(),
            tools: authorized_tools.map(|tools| tools.iter().cloned().collect()),
            state: job.authorization_state(),
        }
    }

    pub fn covers(&self, tool: &str) -> bool {
        self.tools
            .as_ref()
            .is_some_and(|tools| hearth_policy::authorization_covers(tools, tool))
    }

    /// Why high-risk tools are refused in this run, and what the user can do about it.
    pub fn refusal_note(&self) -> JobGrantNote {
        JobGrantNote {
            job: self.job_name.clone(),
            state: match self.state {
                AuthorizationState::NeedsReapproval => JobGrantState::NeedsReapproval,
                AuthorizationState::NotAuthorized => JobGrantState::NotAuthorized,
                AuthorizationState::Authorized => JobGrantState::NotCovering,
            },
        }
    }
}
