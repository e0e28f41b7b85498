//! The runner: a task that fires due jobs through a [`JobExecutor`]. It re-reads the wall clock
//! at least every 30 s (never one long monotonic sleep), holds the scheduler lease (its
//! heartbeat), runs a missed fire time once as a catch-up, and never overlaps two runs of one
//! job: a run that falls due while the previous one is still going is skipped and recorded as
//! `skipped_overlap`.

mod tick;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use hearth_protocol::AppError;
use hearth_store::{Db, Job};
use tokio::sync::Notify;
use tokio::task::{JoinHandle, JoinSet};
use tokio_util::sync::CancellationToken;

use crate::clock::Clock;

/// One run for the executor to carry out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunRequest {
    /// The job as it was when the run was claimed.
    pub job: Job,
    pub run_id: i64,
    /// The fire time this run answers (`None` for "run now").
    pub scheduled_for: Option<DateTime<Utc>>,
    /// Run late for fire times missed while nothing ran the scheduler (once, never a burst).
    pub catch_up: bool,
    pub manual: bool,
    /// High-risk tools the run may use under `daemon` security: `Some` only when the job's
    /// authorization matches the job as it is; `None` means no high-risk tools at all.
    pub authorized_tools: Option<Vec<String>>,
}

/// What a successful run produced.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct JobOutput {
    /// The run's final answer (kept in the run history).
    pub text: String,
    /// The session the run used, if the executor made one.
    pub session_id: Option<String>,
}

/// Carries out a run: in Hearth, a fresh agent session under the `daemon` security profile
/// with the job's own model, its result delivered to the job's target and notified per the
/// job's setting (failures too). An `Err` is recorded as the run's error.
#[async_trait]
pub trait JobExecutor: Send + Sync + 'static {
    async fn run(&self, request: RunRequest) -> Result<JobOutput, RunFailure>;
}

/// Why a run failed: the English text kept in the history (the CLI shows it) and the typed
/// error the UI shows in the viewer's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunFailure {
    pub text: String,
    pub code: AppError,
}

impl RunFailure {
    /// A failure whose text is the error's own English message.
    pub fn new(code: AppError) -> RunFailure {
        RunFailure {
            text: code.to_string(),
            code,
        }
    }

    /// A failure inside the run's session: the text names the session to look into.
    pub fn in_session(code: AppError, session_id: &str) -> RunFailure {
        RunFailure {
            text: format!("{code} (session {session_id})"),
            code,
        }
    }
}

impl std::fmt::Display for RunFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// Timing of the runner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunnerConfig {
    /// The longest sleep between wall-clock reads and heartbeats.
    pub tick: Duration,
    /// A lease whose heartbeat is older than this may be taken over.
    pub stale_after: Duration,
    /// A run starting later than this after its fire time is a catch-up.
    pub catch_up_grace: Duration,
    /// Run output kept in the history is cut to this many characters.
    pub max_output_chars: usize,
}

impl Default for RunnerConfig {
    fn default() -> Self {
        RunnerConfig {
            tick: Duration::from_secs(30),
            stale_after: Duration::from_millis(crate::service::HEARTBEAT_STALE_MS.unsigned_abs()),
            catch_up_grace: Duration::from_secs(60),
            max_output_chars: 100_000,
        }
    }
}

/// Wakes a runner early (after a job was created, edited or asked to run now).
#[derive(Debug, Clone, Default)]
pub struct RunnerSignal(Arc<Notify>);

impl RunnerSignal {
    pub fn wake(&self) {
        self.0.notify_one();
    }

    async fn woken(&self) {
        self.0.notified().await;
    }
}

/// Holds a runner back (the tray's "Pause all jobs"): while paused it keeps its lease but
/// starts no run; once resumed, each job whose time passed meanwhile runs once, as a catch-up.
#[derive(Debug, Clone, Default)]
pub struct RunnerPause(Arc<AtomicBool>);

impl RunnerPause {
    pub fn set(&self, paused: bool) {
        self.0.store(paused, Ordering::SeqCst);
    }

    pub fn is_paused(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// A runner not started yet.
pub struct Runner {
    db: Db,
    clock: Arc<dyn Clock>,
    executor: Arc<dyn JobExecutor>,
    config: RunnerConfig,
    signal: RunnerSignal,
    pause: RunnerPause,
    owner: String,
}

impl Runner {
    /// A runner over `db` (an `Arc<Store>` becomes a [`Db`] of its own).
    pub fn new(db: impl Into<Db>, clock: Arc<dyn Clock>, executor: Arc<dyn JobExecutor>) -> Self {
        Runner {
            db: db.into(),
            clock,
            executor,
            config: RunnerConfig::default(),
            signal: RunnerSignal::default(),
            pause: RunnerPause::default(),
            owner: format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple()),
        }
    }

    pub fn with_config(mut self, config: RunnerConfig) -> Self {
        self.config = config;
        self
    }

    /// Uses `signal` (made before the runner, e.g. for tools built first) to wake this runner.
    pub fn with_signal(mut self, signal: RunnerSignal) -> Self {
        self.signal = signal;
        self
    }

    /// Uses `pause` to hold this runner back; wake it after resuming.
    pub fn with_pause(mut self, pause: RunnerPause) -> Self {
        self.pause = pause;
        self
    }

    /// The signal that wakes this runner (give it to the [`crate::JobService`]).
    pub fn signal(&self) -> RunnerSignal {
        self.signal.clone()
    }

    /// Starts the loop on the current tokio runtime.
    pub fn start(self) -> RunnerHandle {
        let cancel = CancellationToken::new();
        let signal = self.signal.clone();
        let owner = self.owner.clone();
        let task = tokio::spawn(self.run(cancel.clone()));
        RunnerHandle {
            signal,
            cancel,
            task,
            owner,
        }
    }

    async fn run(self, cancel: CancellationToken) {
        let mut tasks: JoinSet<()> = JoinSet::new();
        let mut holding;
        loop {
            holding = tick::beat_and_fire(&self, &mut tasks).await;
            let wait = tick::wait_time(&self, holding).await;
            tokio::select! {
                biased;
                () = cancel.cancelled() => break,
                () = self.signal.woken() => {}
                Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
                () = self.clock.sleep(wait) => {}
            }
        }
        tasks.shutdown().await;
        tick::shut_down(&self, holding).await;
    }
}

/// A started runner.
pub struct RunnerHandle {
    signal: RunnerSignal,
    cancel: CancellationToken,
    task: JoinHandle<()>,
    owner: String,
}

impl RunnerHandle {
    pub fn signal(&self) -> RunnerSignal {
        self.signal.clone()
    }

    /// The runner's lease owner id (pid + random suffix).
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// Stops the loop: runs in progress are abandoned and recorded as failed ("interrupted"),
    /// and the lease is released so another scheduler can take over at once.
    pub async fn stop(self) {
        self.cancel.cancel();
        if let Err(error) = self.task.await {
            tracing::error!(%error, "scheduler runner task failed");
        }
    }
}
