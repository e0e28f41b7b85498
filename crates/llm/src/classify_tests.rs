//! Tests for status and body classification and for error-detail hygiene.

use std::time::Duration;

use super::*;

#[test]
fn auth_statuses() {
    for status in [401, 403] {
        let err = classify_status(status, r#"{"error":{"message":"bad key"}}"#, None, None);
        assert!(
            matches!(err, LlmError::Auth { status: s, ref detail } if s == status && detail == "bad key"),
            "{err:?}"
        );
    }
}

#[test]
fn rate_limit_keeps_retry_after() {
    let err = classify_status(429, "slow down", Some(Duration::from_secs(7)), None);
    match err {
        LlmError::RateLimited {
            retry_after,
            detail,
        } => {
            assert_eq!(retry_after, Some(Duration::from_secs(7)));
            assert_eq!(detail, "slow down");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn context_length_bodies_of_each_provider() {
    let bodies = [
        r#"{"error":{"message":"This model's maximum context length is 8192 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#,
        r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#,
        r#"{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}"#,
        r#"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}"#,
        "Too many tokens in the prompt",
    ];
    for body in bodies {
        let err = classify_status(400, body, None, None);
        assert!(
            matches!(err, LlmError::ContextTooLong { .. }),
            "{body}: {err:?}"
        );
    }
    let err = classify_status(413, "prompt is too long", None, None);
    assert!(matches!(err, LlmError::ContextTooLong { .. }), "{err:?}");
}

#[test]
fn other_client_errors_are_bad_requests() {
    for status in [400, 404, 413, 422] {
        let err = classify_status(
            status,
            r#"{"error":{"message":"no such model"}}"#,
            None,
            None,
        );
        assert!(
            matches!(err, LlmError::BadRequest { status: s, .. } if s == status),
            "{err:?}"
        );
        assert!(!err.is_retryable());
    }
}

#[test]
fn server_errors() {
    for status in [500, 501, 502, 503, 504, 529] {
        let err = classify_status(
            status,
            "<html><body>Bad   gateway</body>\n</html>",
            None,
            None,
        );
        assert!(
            matches!(err, LlmError::Server { status: s, .. } if s == status),
            "{err:?}"
        );
    }
}

#[test]
fn retryable_statuses() {
    for status in [429, 500, 502, 503, 504, 529] {
        assert!(status_is_retryable(status), "{status}");
    }
    for status in [400, 401, 403, 404, 413, 422, 501, 505] {
        assert!(!status_is_retryable(status), "{status}");
    }
}

#[test]
fn detail_uses_the_json_message_and_its_kind() {
    let body = r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
    let err = classify_status(529, body, None, None);
    assert!(
        err.to_string().ends_with("overloaded_error: Overloaded"),
        "{err}"
    );
    let ollama = classify_status(404, r#"{"error":"model 'x' not found"}"#, None, None);
    assert!(
        ollama.to_string().ends_with("model 'x' not found"),
        "{ollama}"
    );
}

#[test]
fn detail_is_cut_short_and_collapsed() {
    let body = format!("line one\n\n   line two {}", "é".repeat(5000));
    let detail = short_detail(&body, None);
    assert!(detail.starts_with("line one line two éé"), "{detail}");
    assert_eq!(detail.chars().count(), DETAIL_MAX_CHARS + 1);
    assert!(detail.ends_with('…'));
    let err = classify_status(500, &body, None, None);
    assert!(err.to_string().len() < 1000);
}

#[test]
fn detail_never_contains_the_key() {
    let key = "sk-test-SECRET-0123456789";
    let body =
        format!(r#"{{"error":{{"message":"Incorrect API key provided: {key}. See docs."}}}}"#);
    let err = classify_status(401, &body, None, Some(key));
    let text = err.to_string();
    assert!(!text.contains(key), "{text}");
    assert!(text.contains("[redacted]"), "{text}");
    // A key straddling the cut-off point must not leak either.
    let padded = format!(
        "{}{key}{}",
        "x".repeat(DETAIL_MAX_CHARS - 5),
        "y".repeat(100)
    );
    let detail = short_detail(&padded, Some(key));
    assert!(!detail.contains("SECRET"), "{detail}");
}

#[test]
fn stream_errors_by_kind() {
    type Check = fn(&LlmError) -> bool;
    let cases: [(&str, &str, Check); 6] = [
        ("overloaded_error", "Overloaded", |e| {
            matches!(e, LlmError::Server { status: 529, .. })
        }),
        ("rate_limit_error", "slow", |e| {
            matches!(e, LlmError::RateLimited { .. })
        }),
        ("authentication_error", "bad", |e| {
            matches!(e, LlmError::Auth { .. })
        }),
        ("invalid_request_error", "prompt is too long", |e| {
            matches!(e, LlmError::ContextTooLong { .. })
        }),
        ("invalid_request_error", "bad field", |e| {
            matches!(e, LlmError::BadRequest { .. })
        }),
        ("", "something broke", |e| {
            matches!(e, LlmError::Server { .. })
        }),
    ];
    for (kind, message, check) in cases {
        let err = classify_stream_error(kind, message, None);
        assert!(check(&err), "{kind}/{message}: {err:?}");
    }
}
