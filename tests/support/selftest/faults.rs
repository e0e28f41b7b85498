//! Self-test of the scripted server's faults: HTTP errors, empty queue, bad requests,
//! disconnects, malformed events, pacing, clients leaving early and shutdown.

use std::time::{Duration, Instant};

use hearth_tests::decode::parse_sse;
use hearth_tests::model_server::NO_REPLY_QUEUED;
use hearth_tests::{Reply, ScriptedServer, ServerOptions};
use serde_json::{json, Value};

use super::{gemini_request, openai_request, send};

#[tokio::test]
async fn status_reply_with_retry_after() {
    let server = ScriptedServer::start().await;
    let body = json!({"error": {"type": "rate_limit_error", "message": "slow down"}}).to_string();
    server.push(Reply::status(429, &body).with_retry_after(2));
    server.push(Reply::status(503, "upstream busy"));
    let limited = send(openai_request(&server, true)).await;
    assert_eq!(limited.status, 429);
    assert_eq!(limited.header("retry-after"), Some("2"));
    assert_eq!(limited.header("content-type"), Some("application/json"));
    assert_eq!(limited.text(), body);
    let busy = send(openai_request(&server, true)).await;
    assert_eq!((busy.status, busy.text().as_str()), (503, "upstream busy"));
    assert_eq!(busy.header("content-type"), Some("text/plain"));
    assert_eq!(busy.header("retry-after"), None);
}

#[tokio::test]
async fn a_server_set_to_refuse_stream_options_answers_400_without_using_a_reply() {
    let options = ServerOptions {
        reject_stream_options: true,
        ..ServerOptions::default()
    };
    let server = ScriptedServer::start_with(options).await.unwrap();
    server.push(Reply::text("served"));
    let refused = send(openai_request(&server, true)).await;
    assert_eq!(refused.status, 400);
    assert!(
        refused.text().contains("stream_options"),
        "{}",
        refused.text()
    );
    assert_eq!(server.pending(), 1);
    let without =
        json!({"model": "m", "stream": true, "messages": [{"role": "user", "content": "hi"}]});
    let served = reqwest::Client::new()
        .post(format!("{}/chat/completions", server.openai_base()))
        .json(&without);
    let served = send(served).await;
    assert_eq!(served.status, 200);
    let events = parse_sse(&served.text());
    assert_eq!(events.last().map(|e| e.data.as_str()), Some("[DONE]"));
    assert_eq!(server.pending(), 0);
    // No usage chunk when it was not asked for.
    assert!(!events.iter().any(|e| e.data.contains("prompt_tokens")));
}

#[tokio::test]
async fn empty_queue_and_bad_requests() {
    let server = ScriptedServer::start().await;
    let empty = send(openai_request(&server, true)).await;
    assert_eq!(
        (empty.status, empty.text().as_str()),
        (500, NO_REPLY_QUEUED)
    );

    server.push(Reply::text("kept"));
    let client = reqwest::Client::new();
    let not_json = client
        .post(format!("{}/chat/completions", server.openai_base()))
        .body("{oops");
    assert_eq!(send(not_json).await.status, 400);
    let no_model = client
        .post(format!("{}/api/chat", server.url()))
        .json(&json!({"messages": []}));
    assert_eq!(send(no_model).await.status, 400);
    assert_eq!(
        send(gemini_request(&server, "streamGenerateContent"))
            .await
            .status,
        400
    );
    assert_eq!(
        send(gemini_request(&server, "countTokens")).await.status,
        404
    );
    let nowhere = client.post(format!("{}/v2/unknown", server.url())).body("");
    let nowhere = send(nowhere).await;
    assert_eq!(
        (nowhere.status, nowhere.text().as_str()),
        (404, "scripted server: no route for POST /v2/unknown")
    );
    assert_eq!(
        server.pending(),
        1,
        "rejected requests do not consume a reply"
    );
    assert_eq!(server.requests()[1].body, Value::String("{oops".into()));
    assert_eq!(server.requests().last().unwrap().path, "/v2/unknown");
    assert_eq!(server.requests().last().unwrap().body, Value::Null);
    assert!(send(openai_request(&server, true))
        .await
        .text()
        .contains("kept"));
    // Every request but the unknown route asked a model.
    assert_eq!(server.model_requests().len(), server.requests().len() - 1);
    assert_eq!(server.model_requests().len(), 6);
}

#[tokio::test]
async fn disconnect_cuts_the_stream_after_whole_events() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("one two three four five six").disconnect_after(3));
    let cut = send(openai_request(&server, true)).await;
    assert_eq!(cut.status, 200);
    assert!(
        cut.error.is_some(),
        "the client sees a transport error, not a clean end"
    );
    let events = parse_sse(&cut.text());
    assert_eq!(events.len(), 3);
    assert!(cut.text().ends_with("\n\n"));
    assert!(events.iter().all(|e| e.data != "[DONE]"));
    assert_eq!(
        server.connections_closed_early(),
        0,
        "a scripted disconnect is not the client leaving"
    );
}

#[tokio::test]
async fn malformed_event_then_the_rest() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("abcdefghij").malformed_after(2));
    server.push(Reply::text("abc").disconnect_after(0));
    let events = parse_sse(&send(openai_request(&server, true)).await.text());
    assert!(events[0].json().is_ok() && events[1].json().is_ok());
    assert!(
        events[2].json().is_err(),
        "third event is invalid JSON: {:?}",
        events[2].data
    );
    assert!(events[3..events.len() - 1].iter().all(|e| e.json().is_ok()));
    assert_eq!(events.last().unwrap().data, "[DONE]");
    let nothing = send(openai_request(&server, true)).await;
    assert!(nothing.error.is_some() && nothing.chunks.concat().is_empty());
}

#[tokio::test]
async fn malformed_applies_to_named_events_and_ndjson() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("hi").malformed_after(1));
    server.push(Reply::text("hi").malformed_after(99));
    let body = json!({"model": "m", "stream": true, "max_tokens": 8, "messages": []});
    let client = reqwest::Client::new();
    let request = client
        .post(format!("{}/v1/messages", server.url()))
        .json(&body);
    let events = parse_sse(&send(request).await.text());
    assert_eq!(events[1].event.as_deref(), Some("ping"));
    assert!(events[1].json().is_err());
    let text = send(
        client
            .post(format!("{}/api/chat", server.url()))
            .json(&body),
    )
    .await
    .text();
    let last = text.lines().last().unwrap();
    assert!(
        serde_json::from_str::<Value>(last).is_err(),
        "past the end, the bad line comes last"
    );
}

#[tokio::test]
async fn chunk_delay_paces_events() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("0123456789").with_chunk_delay(60));
    let body = json!({"model": "m", "messages": []});
    let started = Instant::now();
    let streamed = send(
        reqwest::Client::new()
            .post(format!("{}/api/chat", server.url()))
            .json(&body),
    )
    .await;
    let elapsed = started.elapsed();
    // Two text lines and the done line: two pauses.
    assert_eq!(streamed.text().lines().count(), 3);
    assert!(elapsed >= Duration::from_millis(120), "took {elapsed:?}");
    assert!(elapsed < Duration::from_secs(2), "took {elapsed:?}");
}

#[tokio::test]
async fn client_leaving_early_is_counted() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("a complete reply"));
    server.push(Reply::text(&"slow ".repeat(40)).with_chunk_delay(30));
    send(openai_request(&server, true)).await;
    assert_eq!(server.connections_closed_early(), 0);
    let mut response = openai_request(&server, true).send().await.unwrap();
    assert!(response.chunk().await.unwrap().is_some());
    drop(response);
    assert!(server.wait_closed_early(1, Duration::from_secs(5)).await);
    assert_eq!(server.connections_closed_early(), 1);
}

#[tokio::test]
async fn dropping_the_server_stops_it_and_its_streams() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text(&"never ending ".repeat(50)).with_chunk_delay(200));
    let url = server.url();
    let mut response = openai_request(&server, true).send().await.unwrap();
    assert!(response.chunk().await.unwrap().is_some());
    drop(server);
    let rest = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match response.chunk().await {
                Ok(Some(_)) => continue,
                other => break other.map(|_| ()),
            }
        }
    });
    assert!(
        rest.await.expect("stream ends promptly").is_err(),
        "the stream is aborted, not completed"
    );
    let again = reqwest::Client::new()
        .get(format!("{url}/v1/models"))
        .send()
        .await;
    assert!(again.is_err(), "nothing listens any more");
}
