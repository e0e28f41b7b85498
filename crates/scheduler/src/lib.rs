//! Hearth's scheduler: schedules (cron, natural language, at/every) with DST-correct next-fire
//! times, the clock abstraction, the job service the tools and the CLI share, and the runner
//! that fires jobs.

mod clock;
mod runner;
mod schedule;
mod service;

pub use clock::{Clock, FakeClock, SystemClock};
pub use runner::{
    JobExecutor, JobOutput, RunFailure, RunRequest, Runner, RunnerConfig, RunnerHandle,
    RunnerPause, RunnerSignal,
};
pub use schedule::{
    format_in_zone, parse_zone, system_zone, Plan, Schedule, ScheduleError, MIN_INTERVAL_MS,
};
pub use service::{
    stored_schedule, AuthorizationGrant, BlockingJobs, JobEdit, JobError, JobFilter, JobService,
    JobSpec, JobView, Preview, RunView, SchedulerStatus, HEARTBEAT_STALE_MS, PREVIEW_RUNS,
};
