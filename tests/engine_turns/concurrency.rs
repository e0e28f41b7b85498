//! One running turn per session: engines sharing the front end's registry of running turns
//! refuse a second turn in a session while one runs, the turn's cancel token is reachable through
//! the registry, and the session is free again once the turn ends — also when its future is
//! dropped or panics.

use hearth_engine::Turns;
use tokio::sync::mpsc;

use crate::engine_turns::rig::*;

/// A long reply, streamed slowly enough for a second turn to try to start meanwhile.
fn slow_reply() -> Reply {
    let long: String = (0..400).map(|i| format!("w{i} ")).collect();
    Reply::text(&long).with_chunk_delay(20)
}

/// Starts a turn on `engine` and returns once it has claimed the session (its first event).
async fn started(
    engine: Arc<Engine>,
    session: &str,
    cancel: CancellationToken,
) -> tokio::task::JoinHandle<Result<hearth_engine::TurnSummary, EngineError>> {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let session = session.to_string();
    let turn = tokio::spawn(async move {
        let sink = move |event: EngineEvent| {
            let _ = tx.send(event);
        };
        engine
            .send(&session, vec![ContentPart::text("long")], &sink, cancel)
            .await
    });
    let first = rx.recv().await.expect("the turn sent no event");
    assert!(
        matches!(first, EngineEvent::TurnStarted { .. }),
        "{first:?}"
    );
    turn
}

/// One turn on `engine` with no one watching its events.
async fn send_text(
    engine: &Engine,
    session: &str,
    text: &str,
) -> Result<hearth_engine::TurnSummary, EngineError> {
    let sink = |_: EngineEvent| {};
    engine
        .send(
            session,
            vec![ContentPart::text(text)],
            &sink,
            CancellationToken::new(),
        )
        .await
}

#[tokio::test]
async fn a_second_turn_in_a_running_session_is_refused_by_every_engine_sharing_the_registry() {
    let server = ScriptedServer::start().await;
    server.push(slow_reply());
    let rig = rig(&server, |_| {});
    let turns = Turns::new(rig.store.clone());
    let first_engine = Arc::new(rig.rebuild().with_turns(turns.clone()));
    // The app builds an engine per turn: the second one shares the registry, not the engine.
    let second_engine = rig.rebuild().with_turns(turns.clone());
    let session = rig.session();
    let cancel = CancellationToken::new();
    let turn = started(first_engine, &session, cancel.clone()).await;
    assert!(turns.is_running(&session));
    assert_eq!(turns.count(), 1);

    let refused = send_text(&second_engine, &session, "again")
        .await
        .unwrap_err();
    assert!(
        matches!(&refused, EngineError::Busy(id) if *id == session),
        "{refused}"
    );
    assert!(refused.to_string().contains("already running"), "{refused}");
    // The refused turn stored nothing: only the first turn's user message and its reply.
    let users = rig
        .store
        .list_messages(&session)
        .unwrap()
        .into_iter()
        .filter(|m| m.role == Role::User)
        .count();
    assert_eq!(users, 1);

    // The registry owns the running turn's cancel token.
    assert!(turns.cancel(&session));
    let summary = turn.await.unwrap().unwrap();
    assert_eq!(summary.end, TurnEnd::Cancelled);
    assert!(!turns.is_running(&session));
    assert!(!turns.cancel(&session));

    server.push(Reply::text("free again"));
    let summary = send_text(&second_engine, &session, "now").await.unwrap();
    assert_eq!(summary.end, TurnEnd::Completed);
}

#[tokio::test]
async fn a_turn_whose_future_is_dropped_or_panics_frees_its_session() {
    let server = ScriptedServer::start().await;
    server.push(slow_reply());
    let rig = rig(&server, |_| {});
    let turns = Turns::new(rig.store.clone());
    let engine = Arc::new(rig.rebuild().with_turns(turns.clone()));
    let session = rig.session();

    // Aborting the task drops the turn mid-stream (a closed window, a shutdown).
    let turn = started(engine.clone(), &session, CancellationToken::new()).await;
    turn.abort();
    assert!(turn.await.unwrap_err().is_cancelled());
    assert!(!turns.is_running(&session));

    // A panic while the session is claimed unwinds through the claim's guard.
    let claim_turns = turns.clone();
    let claimed = session.clone();
    let panicked = tokio::spawn(async move {
        let _guard = claim_turns
            .begin(&claimed, CancellationToken::new())
            .await
            .unwrap();
        panic!("a tool panicked");
    })
    .await;
    assert!(panicked.unwrap_err().is_panic());
    assert_eq!(turns.count(), 0);

    server.push(Reply::text("still works"));
    let summary = send_text(&engine, &session, "again").await.unwrap();
    assert_eq!(summary.end, TurnEnd::Completed);
}
