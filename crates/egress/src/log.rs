//! The record of what the proxy refused: host, address and reason, newest kept.

use hearth_tools::{ErrorKind, ToolError};
use std::collections::VecDeque;
use std::net::IpAddr;
use std::sync::Mutex;

/// How many refusals are kept.
pub const KEPT: usize = 256;

/// One refused connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The host the browser asked for, as it sent it (a name or an address).
    pub host: String,
    pub port: u16,
    /// The address that made the guard refuse (none for a local name or a bad target).
    pub address: Option<IpAddr>,
    /// Why, as the guard says it (with how to allow the target).
    pub reason: String,
}

impl Refused {
    /// The `blocked_address` tool error naming the host, for a navigation this refusal stopped.
    pub fn tool_error(&self) -> ToolError {
        ToolError::new(
            ErrorKind::BlockedAddress,
            format!(
                "the browser was not let through to {}: {}",
                self.host, self.reason
            ),
        )
    }
}

/// The kept refusals, each with its number (the count of refusals before it).
#[derive(Default)]
struct Entries {
    count: u64,
    kept: VecDeque<(u64, Refused)>,
}

#[derive(Default)]
pub(crate) struct RefusalLog(Mutex<Entries>);

impl RefusalLog {
    pub(crate) fn push(&self, refused: Refused) {
        if let Ok(mut log) = self.0.lock() {
            if log.kept.len() == KEPT {
                log.kept.pop_front();
            }
            let number = log.count;
            log.kept.push_back((number, refused));
            log.count += 1;
        }
    }

    /// How many refusals were recorded so far (kept or not).
    pub(crate) fn count(&self) -> u64 {
        self.0.lock().map(|log| log.count).unwrap_or_default()
    }

    pub(crate) fn all(&self) -> Vec<Refused> {
        self.0
            .lock()
            .map(|log| log.kept.iter().map(|(_, r)| r.clone()).collect())
            .unwrap_or_default()
    }

    /// The latest refusal of `host` among those recorded after the first `since`.
    pub(crate) fn latest_for(&self, host: &str, since: u64) -> Option<Refused> {
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .trim_end_matches('.');
        let log = self.0.lock().ok()?;
        log.kept
            .iter()
            .rev()
            .take_while(|(number, _)| *number >= since)
            .find(|(_, r)| r.host.trim_end_matches('.').eq_ignore_ascii_case(host))
            .map(|(_, r)| r.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(host: &str) -> Refused {
        Refused {
            host: host.into(),
            port: 80,
            address: None,
            reason: "local".into(),
        }
    }

    #[test]
    fn only_refusals_after_a_count_are_found() {
        let log = RefusalLog::default();
        log.push(refused("a.test"));
        let since = log.count();
        assert_eq!(since, 1);
        assert_eq!(log.latest_for("a.test", since), None);
        assert!(log.latest_for("A.test.", 0).is_some());
        log.push(refused("::1"));
        log.push(refused("a.test"));
        assert_eq!(log.latest_for("[::1]", since), Some(refused("::1")));
        assert!(log.latest_for("a.test", since).is_some());
        assert_eq!(log.count(), 3);
    }
}
