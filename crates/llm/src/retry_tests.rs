//! Tests for `Retry-After` parsing and the jittered exponential backoff.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::*;

/// Sun, 06 Nov 1994 08:49:37 GMT, the example date of RFC 9110.
fn rfc_now() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(784_111_777)
}

#[test]
fn retry_after_seconds() {
    assert_eq!(
        parse_retry_after("1", rfc_now()),
        Some(Duration::from_secs(1))
    );
    assert_eq!(
        parse_retry_after(" 120 ", rfc_now()),
        Some(Duration::from_secs(120))
    );
    assert_eq!(parse_retry_after("0", rfc_now()), Some(Duration::ZERO));
    assert_eq!(
        parse_retry_after("1.5", rfc_now()),
        Some(Duration::from_millis(1500))
    );
}

#[test]
fn retry_after_http_date() {
    let later = parse_retry_after("Sun, 06 Nov 1994 08:49:47 GMT", rfc_now());
    assert_eq!(later, Some(Duration::from_secs(10)));
    let past = parse_retry_after("Sun, 06 Nov 1994 08:00:00 GMT", rfc_now());
    assert_eq!(past, Some(Duration::ZERO));
}

#[test]
fn retry_after_garbage_is_ignored() {
    for value in [
        "",
        "soon",
        "-1",
        "-0.5",
        "NaN",
        "inf",
        "Sun, 99 Nov 1994 08:49:47 GMT",
    ] {
        assert_eq!(parse_retry_after(value, rfc_now()), None, "{value:?}");
    }
}

#[test]
fn backoff_grows_exponentially_within_jitter_bounds() {
    let policy = RetryPolicy {
        max_retries: 10,
        base_delay: Duration::from_millis(100),
        max_delay: Duration::from_secs(2),
    };
    for attempt in 0..12 {
        let cap = (Duration::from_millis(100) * 2u32.pow(attempt)).min(Duration::from_secs(2));
        for _ in 0..20 {
            let delay = backoff_delay(&policy, attempt);
            assert!(
                delay >= cap / 2 && delay <= cap,
                "attempt {attempt}: {delay:?} vs {cap:?}"
            );
        }
    }
}

#[test]
fn backoff_never_overflows() {
    let policy = RetryPolicy::default();
    assert!(backoff_delay(&policy, u32::MAX) <= policy.max_delay);
}

#[test]
fn backoff_is_jittered() {
    let policy = RetryPolicy::default();
    let delays: std::collections::HashSet<Duration> =
        (0..50).map(|_| backoff_delay(&policy, 3)).collect();
    assert!(delays.len() > 10, "{delays:?}");
}
