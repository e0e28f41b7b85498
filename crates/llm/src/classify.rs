//! Turns HTTP statuses, error bodies and transport failures into short, key-free `LlmError`s.

use std::time::Duration;

use crate::LlmError;

/// The longest error detail kept from a provider's response body.
pub(crate) const DETAIL_MAX_CHARS: usize = 300;

const CONTEXT_MARKERS: &[&str] = &[
    "context length",
    "context_length",
    "context window",
    "maximum context",
    "too many tokens",
    "prompt is too long",
    "context_length_exceeded",
    "context size",
    "maximum number of tokens",
    "input is too long",
];

/// Classifies a non-success HTTP response. `api_key` is scrubbed from the detail.
pub(crate) fn classify_status(
    status: u16,
    body: &str,
    retry_after: Option<Duration>,
    api_key: Option<&str>,
) -> LlmError {
    let detail = short_detail(&error_message(body), api_key);
    match status {
        401 | 403 => LlmError::Auth { status, detail },
        429 => LlmError::RateLimited {
            retry_after,
            detail,
        },
        400 | 413 if mentions_context_length(body) => LlmError::ContextTooLong { detail },
        500..=599 => LlmError::Server { status, detail },
        _ => LlmError::BadRequest { status, detail },
    }
}

/// Classifies an error reported inside an otherwise successful stream (Anthropic `error` events,
/// OpenAI-compatible `{"error": …}` chunks, Ollama `{"error": "…"}` lines).
pub(crate) fn classify_stream_error(kind: &str, message: &str, api_key: Option<&str>) -> LlmError {
    let detail = short_detail(message, api_key);
    let kind = kind.to_ascii_lowercase();
    if mentions_context_length(message) || mentions_context_length(&kind) {
        LlmError::ContextTooLong { detail }
    } else if kind.contains("rate_limit") || kind.contains("resource_exhausted") {
        LlmError::RateLimited {
            retry_after: None,
            detail,
        }
    } else if kind.contains("auth") || kind.contains("permission") {
        LlmError::Auth {
            status: 401,
            detail,
        }
    } else if kind.contains("overloaded") {
        LlmError::Server {
            status: 529,
            detail,
        }
    } else if kind.contains("invalid_request") || kind.contains("invalid_argument") {
        LlmError::BadRequest {
            status: 400,
            detail,
        }
    } else {
        LlmError::Server {
            status: 500,
            detail,
        }
    }
}

/// A transport failure (DNS, refused connection, reset, TLS…), with the URL it concerned.
pub(crate) fn network_error(url: &str, err: reqwest::Error) -> LlmError {
    LlmError::Network {
        url: url.to_string(),
        detail: transport_detail(err),
    }
}

/// A transport failure's message with its causes, without the URL (reported separately).
pub(crate) fn transport_detail(err: reqwest::Error) -> String {
    let err = err.without_url();
    let mut detail = err.to_string();
    let mut source = std::error::Error::source(&err);
    while let Some(cause) = source {
        detail.push_str(": ");
        detail.push_str(&cause.to_string());
        source = cause.source();
    }
    short_detail(&detail, None)
}

/// Whether a 429 or 5xx response is worth retrying.
pub(crate) fn status_is_retryable(status: u16) -> bool {
    matches!(status, 429 | 500 | 502 | 503 | 504 | 529)
}

fn mentions_context_length(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    CONTEXT_MARKERS.iter().any(|m| lower.contains(m))
}

/// The human-readable message inside a provider's JSON error body, or the body itself.
fn error_message(body: &str) -> String {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(body) else {
        return body.to_string();
    };
    let error = value.get("error").unwrap_or(&value);
    if let Some(text) = error.as_str() {
        return text.to_string();
    }
    match error.get("message").and_then(|m| m.as_str()) {
        Some(message) => match error.get("type").or_else(|| error.get("status")) {
            Some(serde_json::Value::String(kind)) => format!("{kind}: {message}"),
            _ => message.to_string(),
        },
        None => body.to_string(),
    }
}

/// Removes the key, collapses whitespace and cuts to `DETAIL_MAX_CHARS` characters.
pub(crate) fn short_detail(text: &str, api_key: Option<&str>) -> String {
    let mut text = text.to_string();
    if let Some(key) = api_key.filter(|k| !k.is_empty()) {
        text = text.replace(key, "[redacted]");
    }
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= DETAIL_MAX_CHARS {
        return collapsed;
    }
    let mut cut: String = collapsed.chars().take(DETAIL_MAX_CHARS).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
#[path = "classify_tests.rs"]
mod tests;
