//! One turn of the runner loop: heartbeat (lease), firing what is due unless paused (catch-up detection,
//! the next fire time after a run), executing a run, how long to sleep, and shutting down.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use hearth_protocol::AppError;
use hearth_store::{Db, Job, JobsError, LeaseOutcome, RunBegin, RunKind, RunStart, RunStatus};
use tokio::task::{JoinHandle, JoinSet};

use super::{JobExecutor, RunFailure, RunRequest, Runner};
use crate::clock::Clock;
use crate::schedule::{parse_zone, Plan};
use crate::service::stored_schedule;

/// Never sleep less than this when something is already due (it is being handled; a store
/// error must not spin the loop).
const MIN_WAIT: Duration = Duration::from_secs(1);

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// Renews (or takes) the lease and, when holding it, starts every due run. Returns whether
/// this runner holds the lease.
pub(super) async fn beat_and_fire(runner: &Runner, tasks: &mut JoinSet<()>) -> bool {
    let now = runner.clock.now();
    let now_ms = now.timestamp_millis();
    let stale = millis(runner.config.stale_after);
    let owner = runner.owner.clone();
    let outcome = runner
        .db
        .write(move |store| store.scheduler_heartbeat(&owner, std::process::id(), now_ms, stale))
        .await;
    match outcome {
        Ok(LeaseOutcome::Held { acquired }) => {
            if acquired && tasks.is_empty() {
                match interrupt_running_runs(&runner.db, now_ms).await {
                    Ok(0) => {}
                    Ok(n) => tracing::warn!(runs = n, "marked runs left running as interrupted"),
                    Err(error) => tracing::warn!(%error, "cannot clear runs left running"),
                }
            }
            if !runner.pause.is_paused() {
                fire_due(runner, tasks, now).await;
            }
            true
        }
        Ok(LeaseOutcome::Standby { holder }) => {
            tracing::debug!(holder = %holder.owner, pid = holder.pid, "another scheduler is active");
            false
        }
        Err(error) => {
            tracing::warn!(%error, "scheduler heartbeat failed");
            false
        }
    }
}

/// Records the runs left `running` as interrupted; how many there were.
async fn interrupt_running_runs(db: &Db, now_ms: i64) -> Result<usize, JobsError> {
    db.write(move |store| store.interrupt_running_runs(&AppError::RunInterrupted, now_ms))
        .await
}

async fn fire_due(runner: &Runner, tasks: &mut JoinSet<()>, now: DateTime<Utc>) {
    let now_ms = now.timestamp_millis();
    let jobs = match runner.db.read(move |store| store.due_jobs(now_ms)).await {
        Ok(jobs) => jobs,
        Err(error) => {
            tracing::warn!(%error, "cannot read due jobs");
            return;
        }
    };
    for job in jobs {
        if job.run_requested_at.is_some() {
            start(runner, tasks, &job, RunKind::Manual, now).await;
        }
        if let Some(due) = job.next_run_at.filter(|due| job.enabled && *due <= now_ms) {
            let catch_up = now_ms - due > millis(runner.config.catch_up_grace);
            let next = next_fire(&job, due, now);
            let kind = RunKind::Scheduled {
                due,
                next,
                catch_up,
            };
            start(runner, tasks, &job, kind, now).await;
        }
    }
}

/// The fire time after a run due at `due`: the schedule's next one after `due`, or — when that
/// is already past too (the machine slept through several) — the next one after `now`, so that
/// missed fire times collapse into the single catch-up run.
fn next_fire(job: &Job, due: i64, now: DateTime<Utc>) -> Option<i64> {
    let plan = stored_schedule(job).and_then(|schedule| {
        let zone = parse_zone(&job.tz)?;
        Ok(Plan::new(&schedule, zone)?)
    });
    let plan = match plan {
        Ok(plan) => plan,
        Err(error) => {
            tracing::error!(job = %job.id, %error, "stored schedule is invalid; disabling the job");
            return None;
        }
    };
    let due = DateTime::<Utc>::from_timestamp_millis(due).unwrap_or(now);
    match plan.next_after(due) {
        Some(next) if next > now => Some(next),
        _ => plan.next_after(now),
    }
    .map(|t| t.timestamp_millis())
}

async fn start(
    runner: &Runner,
    tasks: &mut JoinSet<()>,
    job: &Job,
    kind: RunKind,
    now: DateTime<Utc>,
) {
    let authorized_tools = job.authorized_tools().map(<[String]>::to_vec);
    let request = RunStart {
        job_id: job.id.clone(),
        kind,
        authorized: authorized_tools.is_some(),
        now: now.timestamp_millis(),
    };
    match runner
        .db
        .write(move |store| store.begin_job_run(&request))
        .await
    {
        Ok(RunBegin::Started { run_id, job }) => {
            let (scheduled_for, catch_up) = match kind {
                RunKind::Scheduled { due, catch_up, .. } => {
                    (DateTime::<Utc>::from_timestamp_millis(due), catch_up)
                }
                RunKind::Manual => (None, false),
            };
            tracing::info!(job = %job.id, name = %job.name, run_id, catch_up, "job run starts");
            let request = RunRequest {
                job: *job,
                run_id,
                scheduled_for,
                catch_up,
                manual: kind == RunKind::Manual,
                authorized_tools,
            };
            tasks.spawn(execute(
                runner.executor.clone(),
                runner.db.clone(),
                runner.clock.clone(),
                request,
                runner.config.max_output_chars,
            ));
        }
        Ok(RunBegin::SkippedOverlap { run_id }) => {
            tracing::info!(job = %job.id, run_id, "previous run still going: skipped");
        }
        Ok(RunBegin::Stale) => {}
        Err(error) => tracing::warn!(job = %job.id, %error, "cannot start a job run"),
    }
}

/// Aborts the executor's task when the run is abandoned (runner stopped).
struct AbortOnDrop<T>(JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

async fn execute(
    executor: Arc<dyn JobExecutor>,
    db: Db,
    clock: Arc<dyn Clock>,
    request: RunRequest,
    max_chars: usize,
) {
    let run_id = request.run_id;
    // The executor runs in its own task so that a panic in it is recorded as a failed run.
    let mut inner = AbortOnDrop(tokio::spawn(async move { executor.run(request).await }));
    let outcome = match (&mut inner.0).await {
        Ok(outcome) => outcome,
        Err(error) => Err(RunFailure::new(AppError::RunCrashed {
            message: error.to_string(),
        })),
    };
    let now = clock.now().timestamp_millis();
    if let Err(error) = &outcome {
        tracing::warn!(run_id, %error, "job run failed");
    }
    let recorded = db
        .write(move |store| match outcome {
            Ok(output) => store.finish_job_run(
                run_id,
                RunStatus::Ok,
                Some(&cut(&output.text, max_chars)),
                None,
                now,
            ),
            Err(error) => store.finish_job_run(
                run_id,
                RunStatus::Failed,
                None,
                Some((&cut(&error.text, max_chars), &error.code)),
                now,
            ),
        })
        .await;
    if let Err(error) = recorded {
        tracing::warn!(run_id, %error, "cannot record the end of a job run");
    }
}

fn cut(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((at, _)) => format!("{}… [cut at {max_chars} characters]", &text[..at]),
        None => text.to_string(),
    }
}

/// How long to sleep: until the next thing is due, at most one tick.
pub(super) async fn wait_time(runner: &Runner, holding: bool) -> Duration {
    let tick = runner.config.tick;
    if !holding || runner.pause.is_paused() {
        return tick;
    }
    let now = runner.clock.now().timestamp_millis();
    match runner.db.read(|store| store.next_wake_at()).await {
        Ok(Some(at)) if at > now => Duration::from_millis((at - now).unsigned_abs()).min(tick),
        Ok(Some(_)) => MIN_WAIT.min(tick),
        Ok(None) => tick,
        Err(error) => {
            tracing::warn!(%error, "cannot read the next due time");
            tick
        }
    }
}

/// Records abandoned runs as interrupted and releases the lease.
pub(super) async fn shut_down(runner: &Runner, holding: bool) {
    if !holding {
        return;
    }
    let now = runner.clock.now().timestamp_millis();
    if let Err(error) = interrupt_running_runs(&runner.db, now).await {
        tracing::warn!(%error, "cannot record interrupted runs");
    }
    let owner = runner.owner.clone();
    let released = runner
        .db
        .write(move |store| store.release_scheduler(&owner))
        .await;
    if let Err(error) = released {
        tracing::warn!(%error, "cannot release the scheduler lease");
    }
}
