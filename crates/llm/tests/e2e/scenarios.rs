//! Provider-independent end-to-end scenarios, run against each provider's fixture.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use hearth_llm::{
    build_client, collect, ChatMessage, ChatRequest, LlmError, ProviderConfig, RetryPolicy,
    SharedModelClient, StreamEvent, ToolSpec,
};
use hearth_protocol::{StopReason, Usage};
use serde_json::json;

use crate::payloads::{Fixture, CALLS, INPUT_TOKENS, OUTPUT_TOKENS, TEXT};
use crate::server::{End, Reply, TestServer};

/// Small delays so retry scenarios run fast; `Retry-After` is still honoured as sent.
fn fast_retry() -> RetryPolicy {
    RetryPolicy {
        max_retries: 3,
        base_delay: Duration::from_millis(10),
        max_delay: Duration::from_secs(5),
    }
}

pub fn client(fx: &Fixture, server: &TestServer) -> SharedModelClient {
    build_client(ProviderConfig {
        kind: fx.kind,
        provider_id: "test".into(),
        base_url: format!("{}{}/", server.address(), fx.base_path),
        api_key: Some("KEY".into()),
        retry: fast_retry(),
        connect_timeout: Duration::from_secs(5),
    })
    .expect("client")
}

pub fn request() -> ChatRequest {
    ChatRequest {
        model: "test-model".into(),
        system: "Be brief.".into(),
        messages: vec![ChatMessage::user("List the files, then read a.txt")],
        tools: Arc::from([ToolSpec {
            name: "read_file".into(),
            description: "Read a file".into(),
            parameters: json!({"type": "object", "properties": {"path": {"type": "string"}}}),
        }]),
        max_tokens: Some(256),
        temperature: None,
        tool_choice: hearth_llm::ToolChoice::Auto,
    }
}

fn good_reply(fx: &Fixture) -> Reply {
    Reply::stream(fx.content_type, &fx.payload(), 7, End::Complete)
}

async fn run(
    fx: &Fixture,
    replies: Vec<Reply>,
) -> (TestServer, Result<hearth_llm::Completion, LlmError>) {
    let server = TestServer::start(replies).await;
    let client = client(fx, &server);
    let result = match client.stream(&request()).await {
        Ok(stream) => collect(stream).await,
        Err(err) => Err(err),
    };
    (server, result)
}

fn assert_good_completion(fx: &Fixture, completion: &hearth_llm::Completion) {
    assert_eq!(completion.text, TEXT);
    assert_eq!(completion.stop_reason, Some(StopReason::ToolUse));
    assert_eq!(
        completion.usage,
        Usage {
            input_tokens: INPUT_TOKENS,
            output_tokens: OUTPUT_TOKENS
        }
    );
    let got: Vec<(&str, &str)> = completion
        .tool_calls
        .iter()
        .map(|c| (c.name.as_str(), c.arguments.as_str()))
        .collect();
    assert_eq!(got, CALLS);
    let ids: Vec<&str> = completion
        .tool_calls
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    if fx.names_calls {
        assert!(ids[0].ends_with('a') && ids[1].ends_with('b'), "{ids:?}");
    } else {
        assert!(
            ids.iter().all(|id| id.starts_with("call_")) && ids[0] != ids[1],
            "{ids:?}"
        );
    }
}

pub async fn streams_text_and_tool_calls(fx: Fixture) {
    let (server, result) = run(&fx, vec![good_reply(&fx)]).await;
    assert_good_completion(&fx, &result.expect("completion"));
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let sent = &requests[0];
    assert_eq!(
        (sent.method.as_str(), sent.target.as_str()),
        ("POST", fx.stream_target)
    );
    let (header, value) = fx.auth_header;
    assert_eq!(sent.headers.get(header).map(String::as_str), Some(value));
    assert!(sent
        .json()
        .to_string()
        .contains("List the files, then read a.txt"));
}

pub async fn retries_429_after_retry_after(fx: Fixture) {
    let limited =
        Reply::json(429, r#"{"error":{"message":"slow down"}}"#).with_header("Retry-After", "1");
    let started = Instant::now();
    let (server, result) = run(&fx, vec![limited, good_reply(&fx)]).await;
    assert_good_completion(&fx, &result.expect("completion after retry"));
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let waited = requests[1].at - requests[0].at;
    assert!(waited >= Duration::from_secs(1), "retried after {waited:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

pub async fn retries_500_three_times(fx: Fixture) {
    let error = Reply::json(500, r#"{"error":{"message":"internal"}}"#);
    let replies = vec![error.clone(), error.clone(), error, good_reply(&fx)];
    let (server, result) = run(&fx, replies).await;
    assert_good_completion(&fx, &result.expect("completion after retries"));
    assert_eq!(server.requests().len(), 4);
}

pub async fn gives_up_after_the_retry_budget(fx: Fixture) {
    let error = Reply::json(503, "<html>unavailable</html>");
    let (server, result) = run(&fx, vec![error; 5]).await;
    assert!(
        matches!(result, Err(LlmError::Server { status: 503, .. })),
        "{result:?}"
    );
    assert_eq!(server.requests().len(), 4);
}

pub async fn mid_stream_disconnect_is_an_error(fx: Fixture) {
    let aborted = Reply::stream(fx.content_type, &fx.truncated(), 5, End::Abort);
    let (_, result) = run(&fx, vec![aborted]).await;
    assert!(
        matches!(result, Err(LlmError::Network { .. })),
        "{result:?}"
    );
    // A clean end of body without the end-of-response event is no better.
    let cut = Reply::stream(fx.content_type, &fx.truncated(), 5, End::Complete);
    let (_, result) = run(&fx, vec![cut]).await;
    match result {
        Err(LlmError::Network { detail, url }) => {
            assert_eq!(detail, "connection closed mid-response");
            assert!(url.ends_with(fx.stream_target), "{url}");
        }
        other => panic!("{other:?}"),
    }
}

pub async fn malformed_chunk_is_a_protocol_error(fx: Fixture) {
    let reply = Reply::stream(fx.content_type, &fx.with_malformed(), 9, End::Complete);
    let (_, result) = run(&fx, vec![reply]).await;
    assert!(
        matches!(result, Err(LlmError::Protocol { .. })),
        "{result:?}"
    );
}

pub async fn unauthorized_is_not_retried(fx: Fixture) {
    let denied = Reply::json(401, r#"{"error":{"message":"invalid x-api-key KEY"}}"#);
    let (server, result) = run(&fx, vec![denied, good_reply(&fx)]).await;
    match result {
        Err(LlmError::Auth {
            status: 401,
            detail,
        }) => assert!(!detail.contains("KEY"), "{detail}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(server.requests().len(), 1);
}

pub async fn bad_request_and_context_length_are_not_retried(fx: Fixture) {
    let too_long = Reply::json(
        400,
        r#"{"error":{"message":"prompt is too long: 300000 tokens > 200000 maximum"}}"#,
    );
    let (server, result) = run(&fx, vec![too_long, good_reply(&fx)]).await;
    assert!(
        matches!(result, Err(LlmError::ContextTooLong { .. })),
        "{result:?}"
    );
    assert_eq!(server.requests().len(), 1);
    let missing = Reply::json(404, r#"{"error":{"message":"model not found"}}"#);
    let (server, result) = run(&fx, vec![missing, good_reply(&fx)]).await;
    assert!(
        matches!(result, Err(LlmError::BadRequest { status: 404, .. })),
        "{result:?}"
    );
    assert_eq!(server.requests().len(), 1);
}

pub async fn dropping_the_stream_closes_the_connection(fx: Fixture) {
    let held = Reply::stream(fx.content_type, &fx.truncated(), 64, End::Hold);
    let server = TestServer::start(vec![held]).await;
    let client = client(&fx, &server);
    let mut stream = client.stream(&request()).await.expect("stream");
    let first = stream
        .next()
        .await
        .expect("an event")
        .expect("not an error");
    assert!(matches!(first, StreamEvent::TextDelta(_)), "{first:?}");
    assert!(
        !server
            .client_closed_within(Duration::from_millis(200))
            .await
    );
    drop(stream);
    assert!(
        server.client_closed_within(Duration::from_secs(5)).await,
        "connection left open"
    );
}

pub async fn lists_models(fx: Fixture) {
    let server = TestServer::start(vec![Reply::json(200, fx.models_body)]).await;
    let models = client(&fx, &server).list_models().await.expect("models");
    assert_eq!(models, fx.models);
    let requests = server.requests();
    assert_eq!(
        (requests[0].method.as_str(), requests[0].target.as_str()),
        ("GET", fx.models_target)
    );
    let (header, value) = fx.auth_header;
    assert_eq!(
        requests[0].headers.get(header).map(String::as_str),
        Some(value)
    );
}
