//! Where the store reads the time for the timestamps it writes: the system clock, or a clock a
//! test moves by hand (consecutive writes then get the times the test chose, with no waiting).

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The time the store stamps rows with, in unix milliseconds.
pub trait Clock: Send + Sync + 'static {
    fn now_ms(&self) -> i64;
}

/// The system clock (0 before 1970).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(millis)
            .unwrap_or(0)
    }
}

/// A clock that stands still until told to move ([`ManualClock::advance`]): tests that need
/// distinct or chosen timestamps move it instead of sleeping.
#[derive(Debug)]
pub struct ManualClock {
    now_ms: AtomicI64,
}

impl ManualClock {
    /// A clock standing at `now_ms`.
    pub fn at(now_ms: i64) -> ManualClock {
        ManualClock {
            now_ms: AtomicI64::new(now_ms),
        }
    }

    /// A clock standing at the system clock's time now.
    pub fn starting_now() -> ManualClock {
        ManualClock::at(SystemClock.now_ms())
    }

    /// Moves the time forward by `by`.
    pub fn advance(&self, by: Duration) {
        self.now_ms.fetch_add(millis(by), Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.now_ms.load(Ordering::SeqCst)
    }
}

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}
