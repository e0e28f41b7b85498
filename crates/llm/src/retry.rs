//! Sending a request with retries on 429, retryable 5xx and connection failures, with jittered
//! exponential backoff and `Retry-After`, until the response stream begins.

use std::hash::{BuildHasher, Hasher};
use std::time::{Duration, SystemTime};

use reqwest::header::RETRY_AFTER;

use crate::classify::{classify_status, network_error, status_is_retryable};
use crate::http::read_body;
use crate::{LlmError, RetryPolicy};

/// How much of an error response body is read for its message.
const ERROR_BODY_LIMIT: usize = 64 * 1024;

/// Sends the request `make` builds until it gets a success status, retrying per `policy`.
/// 400/401/403/404 and other non-retryable statuses fail at once. A `Retry-After` longer than
/// `policy.max_delay` is not waited for: the `RateLimited` error (carrying it) is returned.
pub(crate) async fn send_with_retry<F>(
    policy: &RetryPolicy,
    url: &str,
    api_key: Option<&str>,
    make: F,
) -> Result<reqwest::Response, LlmError>
where
    F: Fn() -> reqwest::RequestBuilder,
{
    let mut attempt = 0;
    loop {
        let (err, retryable, retry_after) = match make().send().await {
            Ok(response) if response.status().is_success() => return Ok(response),
            Ok(response) => {
                let status = response.status().as_u16();
                let retry_after = response
                    .headers()
                    .get(RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| parse_retry_after(v, SystemTime::now()));
                let body = read_body(response, ERROR_BODY_LIMIT)
                    .await
                    .unwrap_or_default();
                let err = classify_status(status, &body, retry_after, api_key);
                (err, status_is_retryable(status), retry_after)
            }
            Err(e) => {
                let retryable = !e.is_builder();
                (network_error(url, e), retryable, None)
            }
        };
        if !retryable || attempt >= policy.max_retries {
            return Err(err);
        }
        let delay = match retry_after {
            Some(wait) if wait > policy.max_delay => return Err(err),
            Some(wait) => wait,
            None => backoff_delay(policy, attempt),
        };
        tracing::warn!(attempt = attempt + 1, ?delay, error = %err, "retrying model request");
        tokio::time::sleep(delay).await;
        attempt += 1;
    }
}

/// Parses a `Retry-After` value: delay seconds, or an HTTP date (a past date means now).
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs));
    }
    let when = httpdate::parse_http_date(value).ok()?;
    Some(when.duration_since(now).unwrap_or(Duration::ZERO))
}

/// The wait before retry number `attempt + 1`: `base · 2^attempt` capped at `max_delay`, with
/// "equal jitter" (somewhere between half and all of it).
pub fn backoff_delay(policy: &RetryPolicy, attempt: u32) -> Duration {
    let exponential = policy
        .base_delay
        .saturating_mul(2u32.saturating_pow(attempt.min(31)));
    let capped = exponential.min(policy.max_delay);
    let half = capped / 2;
    half + half.mul_f64(random_fraction())
}

/// A random number in [0, 1) from the standard library's randomly keyed hasher.
fn random_fraction() -> f64 {
    let bits = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish();
    (bits >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
#[path = "retry_tests.rs"]
mod tests;
