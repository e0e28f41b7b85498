//! Time for the scheduler: the `Clock` trait (wall-clock reads and sleeps), the real clock, and a
//! fake one that tests move by hand (to simulate a machine that slept through a run).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use tokio::sync::watch;

/// Wall-clock time and sleeping. The runner never trusts one long sleep: it sleeps at most
/// 30 s and reads `now` again, because monotonic timers stall while the computer is asleep.
#[async_trait]
pub trait Clock: Send + Sync + 'static {
    fn now(&self) -> DateTime<Utc>;

    async fn sleep(&self, duration: Duration);
}

/// The system clock and tokio's timer.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

#[async_trait]
impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }

    async fn sleep(&self, duration: Duration) {
        tokio::time::sleep(duration).await;
    }
}

/// A clock that stands still until told to move. `sleep` returns once the fake time has
/// reached the deadline, so a jump of hours ends every pending sleep at once, as a wake from
/// suspend does.
#[derive(Debug)]
pub struct FakeClock {
    now: watch::Sender<DateTime<Utc>>,
    sleepers: AtomicUsize,
    sleeps: AtomicUsize,
}

impl FakeClock {
    pub fn new(start: DateTime<Utc>) -> FakeClock {
        FakeClock {
            now: watch::Sender::new(start),
            sleepers: AtomicUsize::new(0),
            sleeps: AtomicUsize::new(0),
        }
    }

    /// Moves the time forward by `by`.
    pub fn advance(&self, by: Duration) {
        let by = chrono::Duration::from_std(by).unwrap_or(chrono::Duration::MAX);
        self.now
            .send_modify(|now| *now = now.checked_add_signed(by).unwrap_or(*now));
    }

    /// Sets the time (forwards or backwards).
    pub fn set(&self, to: DateTime<Utc>) {
        self.now.send_replace(to);
    }

    /// How many tasks are sleeping on this clock right now.
    pub fn sleepers(&self) -> usize {
        self.sleepers.load(Ordering::SeqCst)
    }

    /// How many sleeps have started so far (a task that went back to sleep has done its work).
    pub fn sleeps_started(&self) -> usize {
        self.sleeps.load(Ordering::SeqCst)
    }
}

#[async_trait]
impl Clock for FakeClock {
    fn now(&self) -> DateTime<Utc> {
        *self.now.borrow()
    }

    async fn sleep(&self, duration: Duration) {
        let by = chrono::Duration::from_std(duration).unwrap_or(chrono::Duration::MAX);
        let start = self.now();
        let deadline = start
            .checked_add_signed(by)
            .unwrap_or(DateTime::<Utc>::MAX_UTC);
        let mut changes = self.now.subscribe();
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        self.sleeps.fetch_add(1, Ordering::SeqCst);
        let _awake = Awake(&self.sleepers);
        while *changes.borrow_and_update() < deadline {
            if changes.changed().await.is_err() {
                return;
            }
        }
    }
}

/// Decrements the sleeper count however the sleep ends (including cancellation).
struct Awake<'a>(&'a AtomicUsize);

impl Drop for Awake<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}
