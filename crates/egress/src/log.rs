//! The record of what the proxy refused: host, port, address and reason, each numbered, newest
//! kept.

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
    /// Whether this refusal is of `host` as a URL spells it (`[::1]`, `localhost.`, any case).
    pub fn is(&self, host: &str) -> bool {
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .trim_end_matches('.');
        self.host.trim_end_matches('.').eq_ignore_ascii_case(host)
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
    /// Records `refused`; its number (the count of refusals before it).
    pub(crate) fn push(&self, refused: Refused) -> u64 {
        let Ok(mut log) = self.0.lock() else {
            return u64::MAX;
        };
        if log.kept.len() == KEPT {
            log.kept.pop_front();
        }
        let number = log.count;
        log.kept.push_back((number, refused));
        log.count += 1;
        number
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

    /// The kept refusals numbered `since` or later, each with its number, oldest first.
    pub(crate) fn since(&self, since: u64) -> Vec<(u64, Refused)> {
        self.0
            .lock()
            .map(|log| {
                log.kept
                    .iter()
                    .filter(|(number, _)| *number >= since)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The latest refusal of `host` (on `port` when given) among those recorded after the
    /// first `since`.
    pub(crate) fn latest_for(&self, host: &str, port: Option<u16>, since: u64) -> Option<Refused> {
        let log = self.0.lock().ok()?;
        log.kept
            .iter()
            .rev()
            .take_while(|(number, _)| *number >= since)
            .find(|(_, r)| r.is(host) && port.is_none_or(|p| p == r.port))
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
        assert_eq!(log.latest_for("a.test", None, since), None);
        assert!(log.latest_for("A.test.", Some(80), 0).is_some());
        assert_eq!(log.latest_for("a.test", Some(81), 0), None);
        assert_eq!(log.push(refused("::1")), 1);
        log.push(refused("a.test"));
        assert_eq!(log.latest_for("[::1]", None, since), Some(refused("::1")));
        assert!(log.latest_for("a.test", None, since).is_some());
        assert_eq!(log.count(), 3);
        let numbers: Vec<u64> = log.since(2).into_iter().map(|(n, _)| n).collect();
        assert_eq!(numbers, [2]);
    }
}
