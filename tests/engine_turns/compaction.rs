//! Compaction that cannot lose context or hang: a summary call cancelled or stalled, an empty
//! summary, and a summary request too long for the model.

use hearth_store::NewMessage;

use crate::engine_turns::rig::*;

const FILLER: &str = "lorem ipsum dolor sit amet ";

/// A small window (compaction is due on the next turn) and a session holding six earlier
/// exchanges, `old question {i}` / `old answer {i}`. The window leaves 3,000 tokens beyond the
/// tool schemas: the rig offers every Hearth tool, whose schemas alone are larger than a
/// 3,000-token window, which no model could be sent a request in at all.
fn long_session(server: &ScriptedServer, tune: impl FnOnce(&mut EngineOptions)) -> (Rig, String) {
    let rig = rig(server, |o| {
        o.context_window = schema_tokens() + 3_000;
        tune(o);
    });
    let session = rig.session();
    let filler = FILLER.repeat(40);
    for i in 0..6 {
        for (role, text) in [
            (Role::User, format!("old question {i} {filler}")),
            (Role::Assistant, format!("old answer {i} {filler}")),
        ] {
            rig.store
                .insert_message(&NewMessage::new(
                    &session,
                    role,
                    vec![ContentPart::text(text)],
                ))
                .unwrap();
        }
    }
    (rig, session)
}

fn summaries_stored(rig: &Rig, session: &str) -> usize {
    let messages = rig.store.list_messages(session).unwrap();
    messages
        .iter()
        .filter(|m| m.kind == MessageKind::Summary)
        .count()
}

fn compacted_events(rig: &Rig) -> usize {
    rig.events
        .lock()
        .unwrap()
        .iter()
        .filter(|e| matches!(e, EngineEvent::Compacted { .. }))
        .count()
}

/// The text of every message a model request sent.
fn sent_text(request: &hearth_tests::RecordedRequest) -> String {
    request.body["messages"].to_string()
}

#[tokio::test]
async fn cancelling_while_the_summary_is_written_ends_the_turn_promptly_storing_nothing() {
    let server = ScriptedServer::start().await;
    let (rig, session) = long_session(&server, |_| {});
    // The summary's stream pauses a minute between events.
    server.push(Reply::text("a summary that never finishes").with_chunk_delay(60_000));
    let before = rig.store.list_messages(&session).unwrap().len();
    let cancel = CancellationToken::new();
    let cancel_once_asked = async {
        while server.model_requests().is_empty() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        cancel.cancel();
    };
    let started = Instant::now();
    let (summary, ()) = tokio::join!(
        rig.send(&session, "new question", cancel.clone()),
        cancel_once_asked
    );
    assert_eq!(summary.end, TurnEnd::Cancelled);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the cancelled summary kept the turn for {:?}",
        started.elapsed()
    );
    assert_eq!(
        server.model_requests().len(),
        1,
        "only the summary was asked"
    );
    assert_eq!(summaries_stored(&rig, &session), 0);
    assert_eq!(compacted_events(&rig), 0);
    // Only the user message was added: no summary, no empty reply.
    assert_eq!(rig.store.list_messages(&session).unwrap().len(), before + 1);
    assert!(server.wait_closed_early(1, Duration::from_secs(5)).await);
}

#[tokio::test]
async fn a_stalled_summary_fails_the_turn_as_stalled_storing_nothing() {
    let server = ScriptedServer::start().await;
    let (rig, session) = long_session(&server, |o| {
        o.stream_idle_timeout = Duration::from_millis(400)
    });
    server.push(Reply::text("slow summary").with_chunk_delay(30_000));
    let error = rig.send_err(&session, "new question").await;
    assert!(matches!(error, EngineError::Stalled(_)), "{error}");
    assert_eq!(summaries_stored(&rig, &session), 0);
}

#[tokio::test]
async fn an_empty_summary_is_not_stored_and_the_older_messages_stay_visible() {
    let server = ScriptedServer::start().await;
    let (rig, session) = long_session(&server, |_| {});
    server.push(Reply::text(""));
    server.push(Reply::text("the answer"));
    let summary = rig
        .send(&session, "new question", CancellationToken::new())
        .await;
    assert_eq!(summary.end, TurnEnd::Completed);
    assert_eq!(summaries_stored(&rig, &session), 0);
    assert_eq!(compacted_events(&rig), 0);
    let requests = server.model_requests();
    assert_eq!(requests.len(), 2);
    let reply_request = sent_text(&requests[1]);
    assert!(
        reply_request.contains("old question 0") && reply_request.contains("new question"),
        "the older messages were hidden: {reply_request}"
    );
    assert!(!reply_request.contains("Summary of the earlier part"));
    let found = rig
        .store
        .search_summaries("lorem", Some(&session), None, None, 10)
        .unwrap();
    assert!(found.is_empty(), "an empty summary reached the timeline");
}

#[tokio::test]
async fn a_summary_request_too_long_for_the_model_is_retried_once_without_its_oldest_part() {
    let server = ScriptedServer::start().await;
    let (rig, session) = long_session(&server, |_| {});
    let overflow = r#"{"error":{"message":"This model's maximum context length is 4096 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#;
    server.push(Reply::status(400, overflow));
    server.push(Reply::text(
        "Summary: the user asked old questions 2 and up.",
    ));
    server.push(Reply::text("the answer"));
    let summary = rig
        .send(&session, "new question", CancellationToken::new())
        .await;
    assert_eq!(summary.end, TurnEnd::Completed);
    let requests = server.model_requests();
    assert_eq!(requests.len(), 3);
    let (first, retry) = (sent_text(&requests[0]), sent_text(&requests[1]));
    assert!(first.contains("old question 0"), "{first}");
    assert!(
        !retry.contains("old question 0"),
        "the oldest input was kept: {retry}"
    );
    assert!(retry.contains("old question 2"), "{retry}");
    assert!(retry.len() < first.len());
    assert_eq!(summaries_stored(&rig, &session), 1);
    assert_eq!(compacted_events(&rig), 1);
    let reply_request = sent_text(&requests[2]);
    assert!(
        reply_request.contains("the user asked old questions 2 and up"),
        "{reply_request}"
    );
}

#[tokio::test]
async fn a_summary_request_that_overflows_twice_fails_the_turn_clearly() {
    let server = ScriptedServer::start().await;
    let (rig, session) = long_session(&server, |_| {});
    let overflow = r#"{"error":{"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}"#;
    server.push(Reply::status(400, overflow));
    server.push(Reply::status(400, overflow));
    let error = rig.send_err(&session, "new question").await;
    assert!(
        matches!(
            error,
            EngineError::Model(hearth_llm::LlmError::ContextTooLong { .. })
        ),
        "{error}"
    );
    assert!(error
        .to_string()
        .contains("too long for this model's context window"));
    assert_eq!(server.model_requests().len(), 2, "retried once, not more");
    assert_eq!(summaries_stored(&rig, &session), 0);
}
