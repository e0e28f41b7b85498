//! What the egress proxy refused while an action ran, sorted by what it refused: a navigation of
//! the tab itself (a document request of its main frame, as the tab's journal recorded it: the
//! action fails `blocked_address`) or anything else the page asked for (sub-resources, `fetch()`,
//! WebSockets, workers: listed in the result, and the action succeeds).
//!
//! The proxy knows what it refused but not for which request; Chrome knows each request but not
//! why the proxy refused it. A navigation counts as refused only when the journal shows the
//! tab's own document request ending in the proxy's refusal answer (its number in
//! `REFUSAL_HEADER`, for `http://`) or failing (a refused `CONNECT`) while the proxy refused that
//! very host and port — so a refused `fetch()` to another port of the same host, or a tracker on
//! a name blocked to `0.0.0.0`, can never be taken for the page.

use crate::journal::Outcome;
use crate::tab::Tab;
use hearth_egress::{EgressProxy, Refused};
use hearth_tools::{ErrorKind, ToolError};
use serde_json::{json, Value};
use std::time::Duration;

/// How many refused hosts a result lists (the rest are counted).
pub const LISTED: usize = 10;
/// How long a refused host's document request may take to report its end.
const OUTCOME_LIMIT: Duration = Duration::from_secs(2);

/// Where an action began: the proxy's refusal count and the tab's journal.
#[derive(Debug, Clone, Copy)]
pub struct Since {
    pub refusals: u64,
    pub hops: u64,
}

/// The refusals an action ran into.
#[derive(Debug, Default)]
pub struct Blocked {
    /// The tab's own navigation the proxy refused.
    pub navigation: Option<Refused>,
    /// Everything else it refused, one entry per host and port, in order.
    pub others: Vec<Refused>,
}

/// The `blocked_address` tool error naming the host, for a navigation of the tab `refused`
/// stopped.
pub(super) fn navigation_error(refused: &Refused) -> ToolError {
    ToolError::new(
        ErrorKind::BlockedAddress,
        format!(
            "the browser was not let through to {}: {}",
            refused.host, refused.reason
        ),
    )
}

fn host_port(url: &str) -> Option<(String, u16)> {
    let url = url::Url::parse(url).ok()?;
    Some((url.host_str()?.to_string(), url.port_or_known_default()?))
}

/// Sorts what the proxy refused since `since` for the action on `tab`.
pub async fn sort(tab: &Tab, egress: &EgressProxy, since: Since) -> Blocked {
    let refused = egress.refusals_since(since.refusals);
    if refused.is_empty() {
        return Blocked::default();
    }
    // Every request Chrome began before the proxy refused it is in the journal after this.
    if let Err(error) = tab.wire.caught_up().await {
        tracing::debug!(%error, "the tab's journal could not be brought up to date");
    }
    let journal = tab.wire.journal();
    let refused_here = |url: &str| {
        host_port(url)
            .is_some_and(|(host, port)| refused.iter().any(|(_, r)| r.is(&host) && r.port == port))
    };
    // The tab's document requests whose last hop went to a refused host and port.
    let suspects: Vec<String> = {
        let entries = journal.lock();
        entries
            .requests_since(since.hops)
            .into_iter()
            .filter(|id| entries.last_hop(id).is_some_and(|h| refused_here(&h.url)))
            .collect()
    };
    journal
        .wait_until(OUTCOME_LIMIT, |e| {
            suspects.iter().all(|id| e.outcome(id).is_some())
        })
        .await;
    let navigation = {
        let entries = journal.lock();
        suspects.iter().find_map(|id| {
            let (host, port) = host_port(&entries.last_hop(id)?.url)?;
            match entries.outcome(id)? {
                Outcome::Response { refusal: Some(n) } => refused
                    .iter()
                    .find(|(number, _)| *number == n)
                    .map(|(number, r)| (*number, r.clone())),
                Outcome::Response { refusal: None } => None,
                Outcome::Failed => refused
                    .iter()
                    .rev()
                    .find(|(_, r)| r.is(&host) && r.port == port)
                    .map(|(number, r)| (*number, r.clone())),
            }
        })
    };
    let mut others: Vec<Refused> = Vec::new();
    for (number, r) in refused {
        let is_navigation = navigation.as_ref().is_some_and(|(n, _)| *n == number);
        if !is_navigation && !others.iter().any(|o| o.host == r.host && o.port == r.port) {
            others.push(r);
        }
    }
    Blocked {
        navigation: navigation.map(|(_, r)| r),
        others,
    }
}

/// Adds the refused requests to an action's result: `blocked` (at most [`LISTED`], each
/// `{host, port, reason}`) and `blocked_more` (how many other hosts were refused).
pub fn report(result: &mut Value, others: &[Refused]) {
    let Some(fields) = result.as_object_mut().filter(|_| !others.is_empty()) else {
        return;
    };
    let listed: Vec<Value> = others
        .iter()
        .take(LISTED)
        .map(|r| json!({"host": r.host, "port": r.port, "reason": r.reason}))
        .collect();
    fields.insert("blocked".into(), json!(listed));
    if others.len() > LISTED {
        fields.insert("blocked_more".into(), json!(others.len() - LISTED));
    }
}
