//! End-to-end tests of behaviour shared by every provider: configuration errors, unreachable
//! servers, `Retry-After` limits and forms, oversized error bodies, optional keys.

use std::time::{Duration, SystemTime};

use hearth_llm::{build_client, LlmError, ProviderConfig, ProviderKind, RetryPolicy};

use crate::payloads;
use crate::scenarios::{client, request};
use crate::server::{End, Reply, TestServer};

fn config(kind: ProviderKind, base_url: &str, api_key: Option<&str>) -> ProviderConfig {
    ProviderConfig {
        kind,
        provider_id: "local".into(),
        base_url: base_url.into(),
        api_key: api_key.map(str::to_string),
        retry: RetryPolicy {
            max_retries: 2,
            base_delay: Duration::from_millis(10),
            max_delay: Duration::from_secs(5),
        },
        connect_timeout: Duration::from_secs(2),
    }
}

#[test]
fn build_client_picks_the_wire_format() {
    for kind in [
        ProviderKind::Openai,
        ProviderKind::Anthropic,
        ProviderKind::Ollama,
        ProviderKind::Gemini,
    ] {
        let client = build_client(config(kind, kind.default_base_url(), None)).expect("client");
        assert_eq!(client.kind(), kind);
    }
}

#[test]
fn unusable_base_urls_are_refused() {
    for base in ["not a url", "ftp://example.com/v1", ""] {
        let result = build_client(config(ProviderKind::Openai, base, None));
        assert!(
            matches!(result, Err(LlmError::Network { .. })),
            "{base}: {:?}",
            result.err()
        );
    }
}

#[tokio::test]
async fn unreachable_server_is_a_network_error_naming_the_url() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("address");
    drop(listener);
    let base = format!("http://{address}/v1");
    let client = build_client(config(ProviderKind::Openai, &base, Some("KEY"))).expect("client");
    let err = client.stream(&request()).await.err().expect("must fail");
    match err {
        LlmError::Network { url, detail } => {
            assert_eq!(url, format!("{base}/chat/completions"));
            assert!(!detail.is_empty() && !detail.contains("KEY"), "{detail}");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn retry_after_beyond_the_policy_is_returned_not_waited() {
    let limited =
        Reply::json(429, r#"{"error":{"message":"quota"}}"#).with_header("Retry-After", "3600");
    let server = TestServer::start(vec![limited]).await;
    let started = std::time::Instant::now();
    let err = client(&payloads::openai(), &server)
        .stream(&request())
        .await
        .err()
        .expect("fails");
    match err {
        LlmError::RateLimited { retry_after, .. } => {
            assert_eq!(retry_after, Some(Duration::from_secs(3600)));
        }
        other => panic!("{other:?}"),
    }
    assert!(started.elapsed() < Duration::from_secs(1));
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn retry_after_as_an_http_date_is_honoured() {
    let fx = payloads::anthropic();
    let when = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(2));
    let limited = Reply::json(429, "busy").with_header("Retry-After", &when);
    let good = Reply::stream(
        fx.content_type,
        &fx.payload(),
        64,
        crate::server::End::Complete,
    );
    let server = TestServer::start(vec![limited, good]).await;
    let stream = client(&fx, &server)
        .stream(&request())
        .await
        .expect("stream after retry");
    hearth_llm::collect(stream).await.expect("completion");
    let requests = server.requests();
    let waited = requests[1].at - requests[0].at;
    assert!(waited >= Duration::from_millis(900), "{waited:?}");
}

#[tokio::test]
async fn huge_error_bodies_give_short_details() {
    let body = format!(r#"{{"error":{{"message":"{}"}}}}"#, "x".repeat(2_000_000));
    let server = TestServer::start(vec![Reply::json(400, &body)]).await;
    let err = client(&payloads::ollama(), &server)
        .stream(&request())
        .await
        .err()
        .expect("fails");
    assert!(
        matches!(err, LlmError::BadRequest { status: 400, .. }),
        "{err:?}"
    );
    assert!(err.to_string().len() < 600, "{}", err.to_string().len());
}

#[tokio::test]
async fn without_a_key_no_key_header_is_sent_and_a_refusal_says_where_to_put_one() {
    for fx in [
        payloads::openai(),
        payloads::anthropic(),
        payloads::ollama(),
        payloads::gemini(),
    ] {
        let refusal = Reply::json(401, r#"{"error":{"message":"Unauthorized"}}"#);
        let mut replies = vec![Reply::json(200, fx.models_body)];
        // Ollama asks `/api/show` for each model's context length.
        if fx.kind == ProviderKind::Ollama {
            replies.extend(fx.models.iter().map(|_| Reply::json(200, "{}")));
        }
        replies.extend([refusal.clone(), refusal]);
        let server = TestServer::start(replies).await;
        let base = format!("{}{}", server.address(), fx.base_path);
        let client = build_client(config(fx.kind, &base, None)).expect("client");
        client.list_models().await.expect("models");
        let err = client.stream(&request()).await.err().expect("refused");
        match &err {
            LlmError::KeyRequired {
                status: 401,
                provider_id,
                env_var,
                detail,
            } => {
                assert_eq!(provider_id, "local");
                assert_eq!(env_var, fx.kind.key_env_var());
                assert_eq!(detail, "Unauthorized");
            }
            other => panic!("{:?}: {other:?}", fx.kind),
        }
        let message = err.to_string();
        assert!(
            message.starts_with("this server wants an API key (401)"),
            "{message}"
        );
        assert!(message.contains("`hearth-cli keys set local`"), "{message}");
        let err = client.list_models().await.expect_err("refused");
        assert!(matches!(err, LlmError::KeyRequired { .. }), "{err:?}");
        for recorded in server.requests() {
            let header = fx.auth_header.0;
            assert!(
                !recorded.headers.contains_key(header),
                "{:?} sent {header}",
                fx.kind
            );
        }
    }
}

#[tokio::test]
async fn listing_that_is_not_json_is_a_protocol_error() {
    let server = TestServer::start(vec![Reply::json(200, "<html>captive portal</html>")]).await;
    let err = client(&payloads::gemini(), &server)
        .list_models()
        .await
        .expect_err("fails");
    assert!(matches!(err, LlmError::Protocol { .. }), "{err:?}");
}

#[test]
fn debug_output_hides_the_key() {
    for kind in [
        ProviderKind::Openai,
        ProviderKind::Anthropic,
        ProviderKind::Ollama,
        ProviderKind::Gemini,
    ] {
        let config = config(kind, kind.default_base_url(), Some("sk-SECRET"));
        let text = match kind {
            ProviderKind::Openai => format!("{:?}", hearth_llm::openai::OpenAiClient::new(&config)),
            ProviderKind::Anthropic => {
                format!("{:?}", hearth_llm::anthropic::AnthropicClient::new(&config))
            }
            ProviderKind::Ollama => format!("{:?}", hearth_llm::ollama::OllamaClient::new(&config)),
            ProviderKind::Gemini => format!("{:?}", hearth_llm::gemini::GeminiClient::new(&config)),
            ProviderKind::Local => unreachable!("not in the list: it has no key"),
        };
        assert!(
            !text.contains("SECRET") && text.contains("<redacted>"),
            "{text}"
        );
    }
}

#[tokio::test]
async fn a_server_refusing_stream_options_is_asked_again_without_it_from_then_on() {
    let fx = payloads::openai();
    let stream = || {
        let payload: String = fx.records.concat();
        Reply::stream(fx.content_type, payload.as_bytes(), 64, End::Complete)
    };
    let refusal = Reply::json(
        400,
        r#"{"error":{"message":"Unrecognized request argument supplied: stream_options","type":"invalid_request_error"}}"#,
    );
    let server = TestServer::start(vec![refusal, stream(), stream()]).await;
    let client = client(&fx, &server);
    for _ in 0..2 {
        let stream = client.stream(&request()).await.expect("stream");
        hearth_llm::collect(stream).await.expect("completion");
    }
    let sent: Vec<bool> = server
        .requests()
        .iter()
        .map(|r| r.json().get("stream_options").is_some())
        .collect();
    assert_eq!(sent, [true, false, false]);
}

#[tokio::test]
async fn other_bad_requests_are_not_retried_without_stream_options() {
    let refusal = Reply::json(400, r#"{"error":{"message":"unknown model"}}"#);
    let server = TestServer::start(vec![refusal]).await;
    let err = client(&payloads::openai(), &server)
        .stream(&request())
        .await
        .err()
        .expect("fails");
    assert!(matches!(err, LlmError::BadRequest { .. }), "{err:?}");
    assert_eq!(server.requests().len(), 1);
}
