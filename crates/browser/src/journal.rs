//! The tab's navigation journal, kept from its raw connection's events in the order Chrome sent
//! them: every request for the main frame's document (each redirect hop), how each ended (a
//! response, the egress proxy's refusal answer, a failure), and the navigations the page asked
//! for itself (a meta refresh, `location` set by script, a link it followed). Only these requests
//! are the tab's navigations: a sub-resource, `fetch()`, WebSocket or worker never is one.

use hearth_egress::REFUSAL_HEADER;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;
use tokio::sync::Notify;

/// How many document requests are kept.
const KEPT: usize = 64;
/// A scheduled navigation (meta refresh) this soon counts as the page sending the tab on.
const PROMPT_REFRESH_SECS: f64 = 1.0;

/// The events the journal reads.
pub const EVENTS: &[&str] = &[
    "Network.requestWillBeSent",
    "Network.responseReceived",
    "Network.loadingFailed",
    "Page.frameRequestedNavigation",
    "Page.frameScheduledNavigation",
];

/// One request (or redirect hop) for the main frame's document.
#[derive(Debug, Clone)]
pub struct Hop {
    pub number: u64,
    /// The request (for a navigation, also the id of the document it makes).
    pub request_id: String,
    pub url: String,
}

/// How a document request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// An answer; `refusal` is the egress proxy's refusal number when the answer is its own.
    Response { refusal: Option<u64> },
    /// No answer (a refused tunnel, a network error, a download).
    Failed,
}

#[derive(Debug, Default)]
pub struct Entries {
    hops: VecDeque<Hop>,
    hops_seen: u64,
    outcomes: HashMap<String, Outcome>,
    /// Navigations the page asked for itself.
    pub requested: u64,
}

impl Entries {
    /// The hops numbered `since` or later, oldest first.
    pub fn hops_since(&self, since: u64) -> impl Iterator<Item = &Hop> {
        self.hops.iter().filter(move |h| h.number >= since)
    }

    /// How many hops were seen so far: taken before an action, it is the `since` of
    /// [`Entries::hops_since`].
    pub fn hop_count(&self) -> u64 {
        self.hops_seen
    }

    /// The document requests begun since hop `since`, oldest first (each once, however many
    /// hops it took).
    pub fn requests_since(&self, since: u64) -> Vec<String> {
        let mut ids: Vec<String> = Vec::new();
        for hop in self.hops_since(since) {
            if !ids.contains(&hop.request_id) {
                ids.push(hop.request_id.clone());
            }
        }
        ids
    }

    /// The last hop of request `id` (where it ended up after its redirects).
    pub fn last_hop(&self, id: &str) -> Option<&Hop> {
        self.hops.iter().rev().find(|h| h.request_id == id)
    }

    pub fn outcome(&self, id: &str) -> Option<Outcome> {
        self.outcomes.get(id).copied()
    }

    fn set_outcome(&mut self, id: &str, outcome: Outcome) {
        if self.hops.iter().any(|h| h.request_id == id) {
            self.outcomes.insert(id.to_string(), outcome);
        }
    }

    fn push(&mut self, request_id: String, url: String) {
        if self.hops.len() == KEPT {
            if let Some(old) = self.hops.pop_front() {
                if !self.hops.iter().any(|h| h.request_id == old.request_id) {
                    self.outcomes.remove(&old.request_id);
                }
            }
        }
        self.hops.push_back(Hop {
            number: self.hops_seen,
            request_id,
            url,
        });
        self.hops_seen += 1;
    }
}

/// The journal of one tab, whose main frame is `target`.
#[derive(Debug)]
pub struct Journal {
    target: String,
    entries: Mutex<Entries>,
    changed: Notify,
}

#[derive(Deserialize)]
struct Event {
    method: String,
    #[serde(default)]
    params: Params,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Params {
    request_id: Option<String>,
    frame_id: Option<String>,
    r#type: Option<String>,
    request: Option<Url>,
    response: Option<Response>,
    delay: Option<f64>,
}

#[derive(Deserialize)]
struct Url {
    url: String,
}

#[derive(Deserialize)]
struct Response {
    #[serde(default)]
    headers: HashMap<String, Value>,
}

impl Journal {
    pub fn new(target: &str) -> Journal {
        Journal {
            target: target.to_string(),
            entries: Mutex::default(),
            changed: Notify::new(),
        }
    }

    pub fn lock(&self) -> MutexGuard<'_, Entries> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records one of [`EVENTS`] (the raw message).
    pub fn record(&self, text: &str) {
        // Most network events are sub-resources: skip them before decoding.
        if text.contains("\"method\":\"Network.") && !text.contains("\"type\":\"Document\"") {
            return;
        }
        let Ok(event) = serde_json::from_str::<Event>(text) else {
            return;
        };
        let p = event.params;
        let main_frame = p.frame_id.as_deref() == Some(self.target.as_str());
        let document = p.r#type.as_deref() == Some("Document");
        let mut entries = self.lock();
        match (event.method.as_str(), p.request_id) {
            ("Network.requestWillBeSent", Some(id)) if main_frame && document => {
                if let Some(request) = p.request {
                    entries.push(id, request.url);
                }
            }
            ("Network.responseReceived", Some(id)) if main_frame && document => {
                let refusal = p.response.and_then(|r| {
                    r.headers
                        .iter()
                        .find(|(name, _)| name.eq_ignore_ascii_case(REFUSAL_HEADER))
                        .and_then(|(_, value)| value.as_str()?.trim().parse().ok())
                });
                entries.set_outcome(&id, Outcome::Response { refusal });
            }
            ("Network.loadingFailed", Some(id)) if document => {
                entries.set_outcome(&id, Outcome::Failed);
            }
            ("Page.frameRequestedNavigation", _) if main_frame => entries.requested += 1,
            ("Page.frameScheduledNavigation", _)
                if main_frame && p.delay.is_some_and(|d| d <= PROMPT_REFRESH_SECS) =>
            {
                entries.requested += 1;
            }
            _ => return,
        }
        drop(entries);
        self.changed.notify_waiters();
    }

    /// Waits until `done` holds for the entries, at most `limit`; whether it did.
    pub async fn wait_until(&self, limit: Duration, done: impl Fn(&Entries) -> bool) -> bool {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let notified = self.changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if done(&self.lock()) {
                return true;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return done(&self.lock());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(method: &str, params: Value) -> String {
        json!({"method": method, "params": params, "sessionId": "s"}).to_string()
    }

    #[test]
    fn only_the_main_frames_document_requests_are_navigations() {
        let journal = Journal::new("main");
        let sent = |id: &str, frame: &str, kind: &str, url: &str| {
            journal.record(&event(
                "Network.requestWillBeSent",
                json!({"requestId": id, "frameId": frame, "type": kind, "request": {"url": url}}),
            ));
        };
        sent("L1", "main", "Document", "http://a.test/");
        sent("L1", "main", "Document", "http://localhost:9/");
        sent("r2", "main", "Fetch", "http://127.0.0.1:9/leak");
        sent("L3", "child", "Document", "http://b.test/frame");
        journal.record(&event(
            "Network.responseReceived",
            json!({"requestId": "L1", "frameId": "main", "type": "Document",
                   "response": {"status": 403, "headers": {"X-Hearth-Egress-Refusal": "7"}}}),
        ));
        journal.record(&event(
            "Network.loadingFailed",
            json!({"requestId": "r2", "type": "Fetch", "errorText": "net::ERR_FAILED"}),
        ));
        let entries = journal.lock();
        let urls: Vec<&str> = entries.hops_since(0).map(|h| h.url.as_str()).collect();
        assert_eq!(urls, ["http://a.test/", "http://localhost:9/"]);
        assert_eq!(entries.last_hop("L1").unwrap().url, "http://localhost:9/");
        assert_eq!(
            entries.outcome("L1"),
            Some(Outcome::Response { refusal: Some(7) })
        );
        assert_eq!(entries.outcome("r2"), None);
        assert_eq!(entries.hop_count(), 2);
    }

    #[test]
    fn a_prompt_refresh_or_a_script_navigation_is_the_page_sending_the_tab_on() {
        let journal = Journal::new("main");
        let scheduled = |delay: f64| {
            journal.record(&event(
                "Page.frameScheduledNavigation",
                json!({"frameId": "main", "delay": delay, "reason": "metaTagRefresh", "url": "x"}),
            ));
        };
        scheduled(300.0);
        assert_eq!(journal.lock().requested, 0);
        scheduled(0.0);
        journal.record(&event(
            "Page.frameRequestedNavigation",
            json!({"frameId": "other", "reason": "scriptInitiated", "url": "x"}),
        ));
        assert_eq!(journal.lock().requested, 1);
    }
}
