//! The job service's changes to jobs: create, edit, enable or disable, delete and run now; each
//! wakes the in-process runner.

use hearth_store::{JobPatch, NewJob};

use super::checks::{check_name, check_prompt, check_target, clean, stored_schedule};
use super::{BlockingJobs, JobEdit, JobError, JobSpec, JobView};
use crate::schedule::{Plan, Schedule};

impl BlockingJobs<'_> {
    /// Creates a job; enabled jobs get their first run computed from now.
    pub fn create(&self, spec: JobSpec) -> Result<JobView, JobError> {
        let name = check_name(&spec.name)?;
        let prompt = check_prompt(&spec.prompt)?;
        let target = spec.target.as_deref().map(check_target).transpose()?;
        let zone = self.zone_for(spec.tz.as_deref(), &spec.schedule)?;
        let plan = Plan::new(&spec.schedule, zone)?;
        let now = self.now();
        plan.check(now)?;
        let new = NewJob {
            name,
            schedule: spec.schedule.without_zone().to_json_string(),
            tz: zone.name().to_string(),
            prompt,
            target,
            model: clean(spec.model),
            enabled: spec.enabled,
            notify: spec.notify,
            next_run_at: spec
                .enabled
                .then(|| plan.next_after(now))
                .flatten()
                .map(|t| t.timestamp_millis()),
            skill: clean(spec.skill),
        };
        let job = self.store.create_job(&new, now.timestamp_millis())?;
        self.wake();
        self.view(&job)
    }

    /// Edits a job. Changing the instruction, schedule, zone or target leaves an existing
    /// authorization unmatched: the job then needs re-approval.
    pub fn edit(&self, key: &str, edit: JobEdit) -> Result<JobView, JobError> {
        let job = self.find(key)?;
        let mut patch = JobPatch {
            name: edit.name.as_deref().map(check_name).transpose()?,
            prompt: edit.prompt.as_deref().map(check_prompt).transpose()?,
            target: edit
                .target
                .map(|t| t.as_deref().map(check_target).transpose())
                .transpose()?,
            model: edit.model.map(clean),
            notify: edit.notify,
            ..JobPatch::default()
        };
        if edit.schedule.is_some() || edit.tz.is_some() {
            let schedule = match &edit.schedule {
                Some(schedule) => schedule.clone(),
                None => stored_schedule(&job)?,
            };
            // A new schedule without a zone of its own stays in the job's zone.
            let tz = edit
                .tz
                .as_deref()
                .or(edit.schedule.as_ref().and_then(Schedule::zone))
                .or(Some(job.tz.as_str()));
            let zone = self.zone_for(tz, &schedule)?;
            let plan = Plan::new(&schedule, zone)?;
            let now = self.now();
            plan.check(now)?;
            patch.schedule = Some(schedule.without_zone().to_json_string());
            patch.tz = Some(zone.name().to_string());
            patch.next_run_at = Some(
                job.enabled
                    .then(|| plan.next_after(now))
                    .flatten()
                    .map(|t| t.timestamp_millis()),
            );
        }
        let job = self
            .store
            .update_job(&job.id, &patch, self.now().timestamp_millis())?;
        self.wake();
        self.view(&job)
    }

    /// Enables (next run recomputed from now; at most 20 enabled) or disables a job.
    pub fn set_enabled(&self, key: &str, enabled: bool) -> Result<JobView, JobError> {
        let job = self.find(key)?;
        let now = self.now();
        let next = if enabled {
            let plan = self.plan(&job)?;
            plan.check(now)?;
            plan.next_after(now).map(|t| t.timestamp_millis())
        } else {
            None
        };
        let job = self
            .store
            .set_job_enabled(&job.id, enabled, next, now.timestamp_millis())?;
        self.wake();
        self.view(&job)
    }

    /// Deletes a job and its history; returns what it was.
    pub fn delete(&self, key: &str) -> Result<JobView, JobError> {
        let job = self.find(key)?;
        let view = self.view(&job)?;
        self.store.delete_job(&job.id)?;
        self.wake();
        Ok(view)
    }

    /// Asks the runner to run the job now (once, besides its schedule).
    pub fn trigger(&self, key: &str) -> Result<JobView, JobError> {
        let job = self.find(key)?;
        let job = self
            .store
            .request_job_run(&job.id, self.now().timestamp_millis())?;
        self.wake();
        self.view(&job)
    }
}
