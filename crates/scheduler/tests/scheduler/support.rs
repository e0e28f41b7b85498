//! Test support: a store in a temp folder, a fake clock, a job service over both, a recording
//! executor whose runs can be held open, and polling helpers.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use hearth_protocol::AppError;
use hearth_scheduler::{
    FakeClock, JobExecutor, JobOutput, JobService, JobSpec, RunFailure, RunRequest, Runner,
    RunnerHandle, Schedule,
};
use hearth_store::Store;
use tokio::sync::Semaphore;

pub struct Env {
    pub dir: tempfile::TempDir,
    pub store: Arc<Store>,
    pub clock: Arc<FakeClock>,
}

impl Env {
    pub fn new(start: DateTime<Utc>) -> Env {
        let dir = match tempfile::tempdir() {
            Ok(dir) => dir,
            Err(e) => panic!("tempdir: {e}"),
        };
        let store = open(&db_path(dir.path()));
        Env {
            dir,
            store,
            clock: Arc::new(FakeClock::new(start)),
        }
    }

    pub fn db(&self) -> PathBuf {
        db_path(self.dir.path())
    }

    pub fn service(&self) -> JobService {
        JobService::new(self.store.clone(), self.clock.clone(), chrono_tz::Tz::UTC)
    }

    pub fn runner(&self, executor: Arc<Recorder>) -> RunnerHandle {
        Runner::new(self.store.clone(), self.clock.clone(), executor).start()
    }

    /// Waits until the (single) runner sleeps on the fake clock, moves the clock by `by`, and
    /// waits until the runner has handled the new time and gone back to sleep.
    pub async fn advance(&self, by: Duration) {
        eventually("the runner to sleep", || self.clock.sleepers() > 0).await;
        let started = self.clock.sleeps_started();
        self.clock.advance(by);
        eventually("the runner to handle the new time", || {
            self.clock.sleeps_started() > started && self.clock.sleepers() > 0
        })
        .await;
    }

    /// The idle signal that stands in for a fixed "nothing else happened" wait: wakes each of
    /// `runners` and waits until all of them have gone back to sleep on the fake clock. A
    /// runner sleeps only after firing everything due at the current time, so a burst of runs,
    /// or a run that a standby should not have fired, has started by the time this returns.
    pub async fn settled(&self, runners: &[&RunnerHandle]) {
        let started = self.clock.sleeps_started();
        for runner in runners {
            runner.signal().wake();
        }
        eventually("the runners to go back to sleep", || {
            self.clock.sleeps_started() >= started + runners.len()
                && self.clock.sleepers() >= runners.len()
        })
        .await;
    }
}

pub fn db_path(dir: &Path) -> PathBuf {
    dir.join("hearth.db")
}

pub fn open(path: &Path) -> Arc<Store> {
    match Store::open(path) {
        Ok(store) => Arc::new(store),
        Err(e) => panic!("open store: {e}"),
    }
}

pub fn spec(name: &str, schedule: &str) -> JobSpec {
    JobSpec {
        name: name.to_string(),
        schedule: match Schedule::parse(schedule) {
            Ok(s) => s,
            Err(e) => panic!("{schedule}: {e}"),
        },
        tz: None,
        prompt: format!("do the {name} thing"),
        target: Some("desktop:target-session".to_string()),
        model: None,
        enabled: true,
        notify: true,
        skill: None,
    }
}

/// Polls `condition` every 5 ms for up to 10 s of real time (the runner works on tokio tasks:
/// this waits for them, it is never a fixed wait).
pub async fn eventually(what: &str, mut condition: impl FnMut() -> bool) {
    for _ in 0..2000 {
        if condition() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("timed out waiting for {what}");
}

/// An executor that records every request, optionally holds runs open until released, and
/// answers with a fixed outcome.
pub struct Recorder {
    pub requests: Mutex<Vec<RunRequest>>,
    gate: Option<Semaphore>,
    outcome: Result<String, RunFailure>,
    running: Mutex<usize>,
    pub max_parallel: Mutex<usize>,
    panics: bool,
}

impl Recorder {
    pub fn ok() -> Arc<Recorder> {
        Arc::new(Recorder::build(None, Ok("done".to_string()), false))
    }

    pub fn failing(error: &str) -> Arc<Recorder> {
        let failure = RunFailure::new(AppError::internal(error));
        Arc::new(Recorder::build(None, Err(failure), false))
    }

    pub fn panicking() -> Arc<Recorder> {
        Arc::new(Recorder::build(None, Ok(String::new()), true))
    }

    /// Runs wait for [`Recorder::release`] before finishing.
    pub fn held() -> Arc<Recorder> {
        Arc::new(Recorder::build(
            Some(Semaphore::new(0)),
            Ok("done".to_string()),
            false,
        ))
    }

    fn build(
        gate: Option<Semaphore>,
        outcome: Result<String, RunFailure>,
        panics: bool,
    ) -> Recorder {
        Recorder {
            requests: Mutex::new(Vec::new()),
            gate,
            outcome,
            running: Mutex::new(0),
            max_parallel: Mutex::new(0),
            panics,
        }
    }

    pub fn release(&self, runs: usize) {
        if let Some(gate) = &self.gate {
            gate.add_permits(runs);
        }
    }

    pub fn count(&self) -> usize {
        lock(&self.requests).len()
    }

    pub fn request(&self, index: usize) -> RunRequest {
        match lock(&self.requests).get(index) {
            Some(request) => request.clone(),
            None => panic!("no request {index}"),
        }
    }
}

pub fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[async_trait]
impl JobExecutor for Recorder {
    async fn run(&self, request: RunRequest) -> Result<JobOutput, RunFailure> {
        lock(&self.requests).push(request);
        {
            let mut running = lock(&self.running);
            *running += 1;
            let mut max = lock(&self.max_parallel);
            *max = (*max).max(*running);
        }
        if let Some(gate) = &self.gate {
            if let Ok(permit) = gate.acquire().await {
                permit.forget();
            }
        }
        *lock(&self.running) -= 1;
        if self.panics {
            panic!("executor blew up");
        }
        self.outcome.clone().map(|text| JobOutput {
            text,
            session_id: None,
        })
    }
}
