//! Why a channel could not be built, deliver or receive, and whether trying again can help.

use std::time::Duration;

/// What went wrong at the channel seam (hearth-core's `Channel::send`, `Inbound::receive` and
/// `ChannelFactory::open`, and [`super::ChannelSink::deliver`]). The English text is what the model, the logs and the
/// stored failure read; [`ChannelError::retryable`] says whether the same call can succeed later.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChannelError {
    /// The settings cannot make a working channel (no URL, a malformed header or token, no chat
    /// to write to). Permanent until the settings change.
    #[error("{0}")]
    Misconfigured(String),
    /// The network guard refused the address (a local or special-purpose one not allowed).
    /// Permanent until `allow_local_hosts` changes.
    #[error("{0}")]
    Blocked(String),
    /// No connection could be made (name not resolved, refused, broken off). Retryable.
    #[error("{0}")]
    Unreachable(String),
    /// No answer within the deadline. Retryable.
    #[error("no answer from {origin} within {} s", .waited.as_secs_f32())]
    TimedOut { origin: String, waited: Duration },
    /// The service refused the credentials (HTTP 401 or 403). Permanent until the token changes.
    #[error("{service} answered {status}: the token or credentials were refused: {detail}")]
    Unauthorized {
        service: String,
        status: u16,
        detail: String,
    },
    /// Too many requests (HTTP 429); `retry_after` is the wait the service asked for, in seconds.
    /// Retryable.
    #[error("{service} answered 429: too many requests, {}: {detail}", retry_after_text(*.retry_after))]
    RateLimited {
        service: String,
        retry_after: Option<u64>,
        detail: String,
    },
    /// The message is larger than the service takes (HTTP 413). Permanent for this message.
    #[error("{service} answered 413: the message is too large for it: {detail}")]
    TooLarge { service: String, detail: String },
    /// The service answered with another failure status: retryable for server errors (5xx),
    /// 408 and 409, permanent for the other refusals.
    #[error("{service} answered {status}: {detail}")]
    Refused {
        service: String,
        status: u16,
        detail: String,
    },
    /// An answer that is not what the service's API sends (a proxy's page, broken JSON).
    /// Retryable.
    #[error("{0}")]
    BadAnswer(String),
    /// The channel cannot carry this message (files to a channel that takes none). Permanent.
    #[error("{0}")]
    Unsupported(String),
    /// The target does not exist (a session gone, no such channel). Permanent.
    #[error("{0}")]
    NoTarget(String),
    /// Hearth's own side failed (the store, a background task). Retryable.
    #[error("{0}")]
    Local(String),
    /// Part `part` of a message in `parts` failed after the ones before it were delivered.
    #[error("part {part} of {parts} not delivered ({} delivered): {error}", .part - 1)]
    Partial {
        part: usize,
        parts: usize,
        error: Box<ChannelError>,
    },
    /// `error` while doing `what` (a Bot API method's name).
    #[error("{what}: {error}")]
    During {
        what: String,
        error: Box<ChannelError>,
    },
}

fn retry_after_text(retry_after: Option<u64>) -> String {
    match retry_after {
        Some(seconds) => format!("retry after {seconds} s"),
        None => "retry later".to_string(),
    }
}

impl ChannelError {
    /// Whether the same call can succeed later without anyone changing anything: network
    /// failures, timeouts, rate limits, server errors, odd answers and Hearth's own failures.
    /// A refused token, a blocked address, bad settings, a refused message are permanent.
    pub fn retryable(&self) -> bool {
        match self {
            ChannelError::Unreachable(_)
            | ChannelError::TimedOut { .. }
            | ChannelError::RateLimited { .. }
            | ChannelError::BadAnswer(_)
            | ChannelError::Local(_) => true,
            ChannelError::Refused { status, .. } => *status >= 500 || matches!(status, 408 | 409),
            ChannelError::Misconfigured(_)
            | ChannelError::Blocked(_)
            | ChannelError::Unauthorized { .. }
            | ChannelError::TooLarge { .. }
            | ChannelError::Unsupported(_)
            | ChannelError::NoTarget(_) => false,
            ChannelError::Partial { error, .. } | ChannelError::During { error, .. } => {
                error.retryable()
            }
        }
    }

    /// The wait the service asked for before the next try, when it said.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            ChannelError::RateLimited { retry_after, .. } => retry_after.map(Duration::from_secs),
            ChannelError::Partial { error, .. } | ChannelError::During { error, .. } => {
                error.retry_after()
            }
            _ => None,
        }
    }

    /// `self` while doing `what`.
    pub fn during(self, what: impl Into<String>) -> ChannelError {
        ChannelError::During {
            what: what.into(),
            error: Box::new(self),
        }
    }

    /// The failure an HTTP `status` from `service` is, with `detail` (its description or the
    /// first bytes of its body) and the `retry_after` it gave, if any.
    pub fn from_status(
        service: impl Into<String>,
        status: u16,
        detail: impl Into<String>,
        retry_after: Option<u64>,
    ) -> ChannelError {
        let (service, detail) = (service.into(), detail.into());
        match status {
            401 | 403 => ChannelError::Unauthorized {
                service,
                status,
                detail,
            },
            413 => ChannelError::TooLarge { service, detail },
            429 => ChannelError::RateLimited {
                service,
                retry_after,
                detail,
            },
            _ => ChannelError::Refused {
                service,
                status,
                detail,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn network_trouble_is_retryable_and_refusals_are_not() {
        let status = |code| ChannelError::from_status("Telegram", code, "x", None);
        assert!(status(500).retryable());
        assert!(status(503).retryable());
        assert!(status(429).retryable());
        assert!(status(409).retryable());
        assert!(!status(401).retryable());
        assert!(!status(403).retryable());
        assert!(!status(400).retryable());
        assert!(!status(413).retryable());
        assert!(matches!(status(401), ChannelError::Unauthorized { .. }));
        assert!(ChannelError::Unreachable("refused".into()).retryable());
        assert!(!ChannelError::Blocked("local".into()).retryable());
        let timed_out = ChannelError::TimedOut {
            origin: "http://127.0.0.1:9".into(),
            waited: Duration::from_secs(1),
        };
        assert_eq!(
            timed_out.to_string(),
            "no answer from http://127.0.0.1:9 within 1 s"
        );
        assert!(timed_out.retryable());
    }

    #[test]
    fn wrapped_errors_keep_the_inner_verdict_and_text() {
        let unauthorized =
            ChannelError::from_status("Telegram", 401, "Unauthorized", None).during("getUpdates");
        assert!(!unauthorized.retryable());
        assert_eq!(
            unauthorized.to_string(),
            "getUpdates: Telegram answered 401: the token or credentials were refused: Unauthorized"
        );
        let limited = ChannelError::Partial {
            part: 2,
            parts: 3,
            error: Box::new(ChannelError::from_status(
                "Telegram",
                429,
                "slow down",
                Some(7),
            )),
        };
        assert!(limited.retryable());
        assert_eq!(limited.retry_after(), Some(Duration::from_secs(7)));
        assert_eq!(
            limited.to_string(),
            "part 2 of 3 not delivered (1 delivered): Telegram answered 429: too many requests, retry after 7 s: slow down"
        );
    }
}
