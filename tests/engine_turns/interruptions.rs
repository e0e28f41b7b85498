//! Replies cut short or slowed down: cancellation, rate limits, server errors, stalls, periodic
//! flushing, and a stream the server closes right after a request too long for its context.

use crate::engine_turns::rig::*;
use hearth_protocol::AppError;

#[tokio::test]
async fn cancelling_mid_stream_keeps_the_partial_reply_as_interrupted() {
    let server = ScriptedServer::start().await;
    let long: String = (0..200).map(|i| format!("w{i} ")).collect();
    server.push(Reply::text(&long).with_chunk_delay(10));
    let rig = rig(&server, |_| {});
    let session = rig.session();
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    let events = rig.events.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_millis(20)).await;
            let deltas = events
                .lock()
                .unwrap()
                .iter()
                .filter(|e| matches!(e, EngineEvent::TextDelta { .. }))
                .count();
            if deltas >= 5 {
                trigger.cancel();
                return;
            }
        }
    });
    let summary = rig.send(&session, "talk", cancel).await;
    assert_eq!(summary.end, TurnEnd::Cancelled);
    let messages = rig.store.list_messages(&session).unwrap();
    let reply = &messages[1];
    assert_eq!(reply.status, MessageStatus::Interrupted);
    assert!(!reply.text().is_empty() && reply.text().len() < long.len());
    // Dropping the stream closed the connection to the server.
    assert!(server.wait_closed_early(1, Duration::from_secs(10)).await);
    assert_eq!(server.connections_closed_early(), 1);
}

#[tokio::test]
async fn rate_limits_are_retried_after_the_advertised_delay() {
    let server = ScriptedServer::start().await;
    server.push(Reply::status(429, "slow down").with_retry_after(1));
    server.push(Reply::text("made it"));
    let rig = rig(&server, |_| {});
    let session = rig.session();
    let started = Instant::now();
    let summary = rig.send(&session, "hi", CancellationToken::new()).await;
    assert_eq!(summary.end, TurnEnd::Completed);
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After was not honoured"
    );
    assert_eq!(server.requests().len(), 2);
    assert_eq!(
        rig.store.list_messages(&session).unwrap()[1].text(),
        "made it"
    );
}

#[tokio::test]
async fn server_errors_fail_the_turn_and_mark_the_reply_failed() {
    let server = ScriptedServer::start().await;
    for _ in 0..4 {
        server.push(Reply::status(503, "overloaded"));
    }
    let rig = rig(&server, |_| {});
    let session = rig.session();
    let error = rig.send_err(&session, "hi").await;
    assert!(error.to_string().contains("server error"), "{error}");
    assert_eq!(server.requests().len(), 4, "one try plus three retries");
    let messages = rig.store.list_messages(&session).unwrap();
    assert_eq!(
        messages[0].status,
        MessageStatus::Complete,
        "the user message is kept"
    );
    assert_eq!(messages[1].status, MessageStatus::Failed);
    assert!(rig
        .events
        .lock()
        .unwrap()
        .iter()
        .any(|e| matches!(e, EngineEvent::TurnFailed { .. })));
}

#[tokio::test]
async fn streamed_text_is_flushed_to_the_store_while_streaming() {
    let server = ScriptedServer::start().await;
    let long: String = (0..100).map(|i| format!("t{i} ")).collect();
    server.push(Reply::text(&long).with_chunk_delay(25));
    let rig = rig(&server, |_| {});
    let session = rig.session();
    let store = rig.store.clone();
    let watched = session.clone();
    let watcher = tokio::spawn(async move {
        let mut seen = Vec::new();
        for _ in 0..40 {
            tokio::time::sleep(Duration::from_millis(50)).await;
            if let Some(m) = store.list_messages(&watched).unwrap().get(1) {
                if m.status == MessageStatus::Streaming {
                    seen.push(m.text().len());
                }
            }
        }
        seen
    });
    rig.send(&session, "stream", CancellationToken::new()).await;
    let seen = watcher.await.unwrap();
    assert!(
        seen.iter().any(|&n| n > 0),
        "no partial text was visible in the store: {seen:?}"
    );
}

#[tokio::test]
async fn a_stream_that_goes_silent_fails_as_stalled_and_keeps_its_text() {
    let server = ScriptedServer::start().await;
    // Three words arrive, then the server pauses far longer than the idle timeout.
    server.push(Reply::text("one two three").with_chunk_delay(3_000));
    let rig = rig(&server, |o| {
        o.stream_idle_timeout = Duration::from_millis(400)
    });
    let session = rig.session();
    let started = Instant::now();
    let error = rig.send_err(&session, "talk").await;
    assert!(matches!(error, EngineError::Stalled(_)), "{error}");
    assert!(error.to_string().contains("sent nothing for"), "{error}");
    assert!(
        started.elapsed() < Duration::from_millis(2_900),
        "gave up before the next chunk"
    );
    let messages = rig.store.list_messages(&session).unwrap();
    assert_eq!(messages[1].status, MessageStatus::Failed);
    assert!(messages[1]
        .error
        .as_deref()
        .unwrap_or("")
        .contains("sent nothing"));
    // The typed error is stored too, so the failure line reads in the viewer's language.
    assert_eq!(
        messages[1].error_code,
        Some(AppError::Stalled { seconds: 0 }),
        "{:?}",
        messages[1].error
    );
}

#[tokio::test]
async fn a_stream_closed_right_after_a_long_request_says_it_is_probably_too_long() {
    let server = ScriptedServer::start().await;
    // llama.cpp drops the connection when the prompt does not fit its context.
    server.push(Reply::text("never sent").disconnect_after(0));
    server.push(Reply::text("never sent").disconnect_after(0));
    // About 4,900 tokens: it fits the window Hearth was told of (so it is sent), but the
    // server's real context is smaller.
    let long = "a long pasted document line\n".repeat(700);
    let told = schema_tokens() + 8_192;
    let small = rig(&server, |o| o.context_window = told);
    let session = small.session();
    let error = small.send_err(&session, &long).await;
    let EngineError::ProbablyTooLong { tokens, window } = error else {
        panic!("not explained as too long: {error}");
    };
    assert_eq!(window, told);
    assert!(tokens * 2 >= told && tokens < told, "{tokens}");
    let stored = small.store.list_messages(&session).unwrap();
    assert!(stored[1]
        .error
        .as_deref()
        .unwrap()
        .contains(&format!("{told} tokens")));
    assert_eq!(
        stored[1].error_code,
        Some(AppError::ProbablyTooLong { tokens, window })
    );

    // The same disconnect after a short request is still a network error.
    let roomy = rig(&server, |o| o.context_window = 1_000_000);
    let session = roomy.session();
    let error = roomy.send_err(&session, "hi").await;
    assert!(
        matches!(
            error,
            EngineError::Model(hearth_llm::LlmError::Network { .. })
        ),
        "{error}"
    );
}
