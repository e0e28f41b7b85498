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

#[derive(Default)]
pub(crate) struct RefusalLog(Mutex<VecDeque<Refused>>);

impl RefusalLog {
    pub(crate) fn push(&self, refused: Refused) {
        if let Ok(mut log) = self.0.lock() {
            if log.len() == KEPT {
                log.pop_front();
            }
            log.push_back(refused);
        }
    }

    pub(crate) fn all(&self) -> Vec<Refused> {
        self.0
            .lock()
            .map(|log| log.iter().cloned().collect())
            .unwrap_or_default()
    }

    pub(crate) fn latest_for(&self, host: &str) -> Option<Refused> {
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        let log = self.0.lock().ok()?;
        log.iter()
            .rev()
            .find(|r| r.host.trim_end_matches('.').eq_ignore_ascii_case(&host))
            .cloned()
    }
}
