//! The confirmation shown for `cronjob authorize`: which job, its instruction, how often it runs
//! (schedule in words and the next run) and where its results go.

use std::sync::Arc;

use hearth_scheduler::{system_zone, JobService, SystemClock};
use hearth_store::Store;
use hearth_tools::authorizable_tools;

/// The canonical job tool and its action that grants unattended high-risk tools.
const JOB_TOOL: &str = "cronjob";
const AUTHORIZE: &str = "authorize";

/// Whether a call to the canonical tool `tool` with `arguments` authorizes a job.
pub(crate) fn is_job_authorization(tool: &str, arguments: &str) -> bool {
    tool == JOB_TOOL
        && serde_json::from_str::<serde_json::Value>(arguments)
            .is_ok_and(|args| args["action"] == AUTHORIZE)
}

/// What the user is asked: the job's instruction, frequency and delivery target, or — when the
/// job cannot be found — the policy reason and why (the tool then reports the error itself).
pub(crate) fn authorization_prompt(store: &Arc<Store>, arguments: &str, reason: &str) -> String {
    let key = serde_json::from_str::<serde_json::Value>(arguments)
        .ok()
        .and_then(|args| args["job_id"].as_str().map(str::to_string))
        .unwrap_or_default();
    let service = JobService::new(store.clone(), Arc::new(SystemClock), system_zone());
    match service.authorization_request(&key, &authorizable_tools()) {
        Ok(grant) => format!("{} ({reason})", grant.question()),
        Err(error) => format!("Authorize job \"{key}\"? It cannot be shown: {error}. ({reason})"),
    }
}
