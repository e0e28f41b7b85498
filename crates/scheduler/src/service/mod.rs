//! The job service: the one place jobs are created, edited, enabled, run now, authorized and
//! listed, for the job tools, `hearth-cli jobs` and the desktop alike. It validates input,
//! resolves the zone, computes next runs and wakes an in-process runner. The service (run
//! through the store's `Db` from async code) and its reads are here; its changes,
//! authorizations, input checks and views are the modules below.

mod authorize;
mod changes;
mod checks;
mod spec;
mod view;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use hearth_store::{Db, DbError, Job, JobsError, Store};

use crate::clock::Clock;
use crate::runner::RunnerSignal;
use crate::schedule::{parse_zone, Plan, Schedule};

pub use checks::stored_schedule;
pub use spec::{JobEdit, JobError, JobFilter, JobSpec};
pub use view::{AuthorizationGrant, JobView, Preview, RunView, SchedulerStatus};

/// A scheduler whose heartbeat is older than this is taken for gone.
pub const HEARTBEAT_STALE_MS: i64 = 90_000;
/// How many upcoming runs previews and authorizations show.
pub const PREVIEW_RUNS: usize = 5;

/// Jobs over the store, with a clock for "now" and an optional in-process runner to wake.
/// Async code runs its operations with [`JobService::read`] and [`JobService::write`], which
/// hand them to the store's [`Db`]; code already on a blocking thread uses [`JobService::on`].
#[derive(Clone)]
pub struct JobService {
    db: Db,
    clock: Arc<dyn Clock>,
    default_zone: Tz,
    signal: Option<RunnerSignal>,
}

/// The job service's operations over a store reached directly, inside one blocking call.
pub struct BlockingJobs<'a> {
    service: &'a JobService,
    store: &'a Store,
}

impl JobService {
    /// A service over `db` (an `Arc<Store>` becomes a [`Db`] of its own).
    pub fn new(db: impl Into<Db>, clock: Arc<dyn Clock>, default_zone: Tz) -> JobService {
        JobService {
            db: db.into(),
            clock,
            default_zone,
            signal: None,
        }
    }

    /// Wakes this runner after every change (runners in other processes notice within 30 s).
    pub fn with_signal(mut self, signal: RunnerSignal) -> JobService {
        self.signal = Some(signal);
        self
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    /// Runs `read` (job-service reads) through the store's [`Db`].
    pub async fn read<T, F>(&self, read: F) -> Result<T, JobError>
    where
        F: FnOnce(&BlockingJobs<'_>) -> Result<T, JobError> + Send + 'static,
        T: Send + 'static,
    {
        let service = self.clone();
        self.db.read(move |store| read(&service.on(store))).await
    }

    /// Runs `write` (job-service changes) through the store's [`Db`].
    pub async fn write<T, F>(&self, write: F) -> Result<T, JobError>
    where
        F: FnOnce(&BlockingJobs<'_>) -> Result<T, JobError> + Send + 'static,
        T: Send + 'static,
    {
        let service = self.clone();
        self.db.write(move |store| write(&service.on(store))).await
    }

    /// This service over its own store, for code already on a blocking thread (the command
    /// line, tests).
    pub fn blocking(&self) -> BlockingJobs<'_> {
        self.on(self.db.blocking())
    }

    /// This service over `store`, for code already on a blocking thread (and inside
    /// [`JobService::read`] and [`JobService::write`]).
    pub fn on<'a>(&'a self, store: &'a Store) -> BlockingJobs<'a> {
        BlockingJobs {
            service: self,
            store,
        }
    }

    fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    /// The next runs of a schedule that is not saved yet (the desktop's live preview).
    pub fn preview(&self, schedule: &Schedule, tz: Option<&str>) -> Result<Preview, JobError> {
        let zone = self.zone_for(tz, schedule)?;
        let plan = Plan::new(schedule, zone)?;
        plan.check(self.now())?;
        let stored = serde_json::to_value(schedule).unwrap_or(serde_json::Value::Null);
        Ok(Preview::new(&plan, stored, self.now()))
    }

    fn zone_for(&self, tz: Option<&str>, schedule: &Schedule) -> Result<Tz, JobError> {
        match tz.or(schedule.zone()) {
            Some(name) => Ok(parse_zone(name)?),
            None => Ok(self.default_zone),
        }
    }
}

impl From<DbError> for JobError {
    fn from(error: DbError) -> JobError {
        JobError::Jobs(error.into())
    }
}

impl BlockingJobs<'_> {
    fn now(&self) -> DateTime<Utc> {
        self.service.now()
    }

    fn zone_for(&self, tz: Option<&str>, schedule: &Schedule) -> Result<Tz, JobError> {
        self.service.zone_for(tz, schedule)
    }

    fn wake(&self) {
        if let Some(signal) = &self.service.signal {
            signal.wake();
        }
    }

    /// The upcoming runs of a saved job.
    pub fn upcoming(&self, key: &str) -> Result<Preview, JobError> {
        self.preview_job(&self.find(key)?)
    }

    pub fn get(&self, key: &str) -> Result<JobView, JobError> {
        self.view(&self.find(key)?)
    }

    /// The stored job with id or name `key`.
    pub fn find(&self, key: &str) -> Result<Job, JobError> {
        self.store
            .find_job(key.trim())?
            .ok_or_else(|| JobError::Jobs(JobsError::NotFound(key.to_string())))
    }

    pub fn list(&self, filter: JobFilter) -> Result<Vec<JobView>, JobError> {
        self.store
            .list_jobs()?
            .iter()
            .filter(|job| match filter {
                JobFilter::All => true,
                JobFilter::Enabled => job.enabled,
                JobFilter::Disabled => !job.enabled,
            })
            .map(|job| self.view(job))
            .collect()
    }

    /// A job's most recent runs, newest first.
    pub fn history(&self, key: &str, limit: usize) -> Result<Vec<RunView>, JobError> {
        let job = self.find(key)?;
        let zone = parse_zone(&job.tz)?;
        Ok(self
            .store
            .list_job_runs(&job.id, limit)?
            .into_iter()
            .map(|run| RunView::new(run, zone))
            .collect())
    }

    /// Whether a scheduler (the app or `hearth-cli daemon`) has beaten its heart recently.
    pub fn scheduler_status(&self) -> Result<SchedulerStatus, JobError> {
        let beat = self.store.scheduler_status()?;
        Ok(SchedulerStatus::new(
            beat,
            self.now().timestamp_millis(),
            HEARTBEAT_STALE_MS,
        ))
    }

    fn plan(&self, job: &Job) -> Result<Plan, JobError> {
        Ok(Plan::new(&stored_schedule(job)?, parse_zone(&job.tz)?)?)
    }

    fn preview_job(&self, job: &Job) -> Result<Preview, JobError> {
        let stored = serde_json::from_str(&job.schedule).unwrap_or(serde_json::Value::Null);
        Ok(Preview::new(&self.plan(job)?, stored, self.now()))
    }

    fn view(&self, job: &Job) -> Result<JobView, JobError> {
        let plan = self.plan(job)?;
        let last = self.store.list_job_runs(&job.id, 1)?.into_iter().next();
        Ok(JobView::new(job, &plan, last))
    }
}
