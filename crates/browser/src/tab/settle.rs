//! Waiting for a page to settle after an action: one frame when the action changed nothing and
//! started no request, until the DOM is quiet when it changed it (about 500 ms at most), the load
//! when it navigated (at most 10 s), the requests it started otherwise (at most 5 s).

use super::events::PageState;
use super::Tab;
use crate::cdp::call;
use serde_json::json;
use std::time::{Duration, Instant};

/// The settle window when nothing navigates.
const SETTLE: Duration = Duration::from_millis(500);
/// How long the DOM must have been quiet when the action changed it (two frames at 60 Hz: a
/// handler's re-render in a `requestAnimationFrame` or a short timer is seen).
const QUIET: Duration = Duration::from_millis(30);
const LOAD_LIMIT: Duration = Duration::from_secs(10);
const REQUESTS_LIMIT: Duration = Duration::from_secs(5);
const POLL: Duration = Duration::from_millis(20);
/// How many milliseconds ago the DOM last changed.
const QUIET_NOW: &str = "performance.now() - (window.__hearthChanged || 0)";
/// The same, asked after the next rendered frame (at most 50 ms, for a tab that is not drawn):
/// input handlers have run when the input command returns, a re-render they scheduled for the
/// next frame has run then.
const QUIET_AFTER_FRAME: &str = "new Promise((done) => { \
    const answer = () => done(performance.now() - (window.__hearthChanged || 0)); \
    requestAnimationFrame(answer); setTimeout(answer, 50); })";

/// Where the page was before an action.
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    loads: u64,
    requests: u64,
    at: Instant,
}

impl Tab {
    pub fn mark(&self) -> Mark {
        let state = self.events.lock();
        Mark {
            loads: state.loads_started,
            requests: state.requests_started,
            at: Instant::now(),
        }
    }

    /// Whether a main-frame load began since `mark`.
    pub fn navigated_since(&self, mark: Mark) -> bool {
        self.events.lock().loads_started > mark.loads
    }

    /// Waits until `done` holds for the page state, at most `limit`; whether it did.
    pub async fn wait_until(&self, limit: Duration, done: impl Fn(&PageState) -> bool) -> bool {
        let deadline = Instant::now() + limit;
        loop {
            let notified = self.events.changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if done(&self.events.lock()) {
                return true;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            let _ = tokio::time::timeout(left, notified).await;
        }
    }

    /// Waits for the main document to finish loading (at most `limit`).
    pub async fn wait_for_load(&self, limit: Duration) -> bool {
        self.wait_until(limit, |s| !s.loading && s.lifecycle.contains("load"))
            .await
    }

    /// How long ago the DOM last changed (large when unknown), asked by `expression`.
    async fn quiet_for(&self, expression: &str) -> Duration {
        let result = call(
            &self.page,
            "Runtime.evaluate",
            json!({"expression": expression, "awaitPromise": true, "returnByValue": true}),
        )
        .await;
        let ms = result
            .ok()
            .and_then(|r| r["result"]["value"].as_f64())
            .unwrap_or(f64::MAX);
        Duration::from_secs_f64((ms / 1000.0).clamp(0.0, 3600.0))
    }

    /// Waits for the page to settle after an action that began at `mark`: done once no request
    /// the action started is in flight and the DOM has not changed since the action (or not for
    /// [`QUIET`]); the load if it navigated; the requests it started after [`SETTLE`].
    pub async fn settle(&self, mark: Mark) {
        let mut expression = QUIET_AFTER_FRAME;
        loop {
            if self.navigated_since(mark) {
                self.wait_for_load(LOAD_LIMIT).await;
                return;
            }
            let busy = self.events.lock().pending_since(mark.requests);
            let mut pause = POLL;
            if !busy {
                let quiet = self.quiet_for(expression).await;
                expression = QUIET_NOW;
                if quiet >= QUIET.min(mark.at.elapsed()) && !self.navigated_since(mark) {
                    return;
                }
                pause = QUIET.saturating_sub(quiet).max(Duration::from_millis(5));
            }
            if mark.at.elapsed() >= SETTLE {
                self.wait_until(REQUESTS_LIMIT, |s| !s.pending_since(mark.requests))
                    .await;
                return;
            }
            tokio::time::sleep(pause).await;
        }
    }
}
