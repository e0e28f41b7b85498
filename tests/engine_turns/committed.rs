//! A turn begins by storing the user's message, before any provider is looked at: a message
//! whose turn never reached a model is kept (and answered by a later Retry), and the first
//! message of an untitled chat titles it, in the settings' language.

use crate::engine_turns::rig::*;

#[tokio::test]
async fn a_committed_message_survives_a_turn_that_never_started_and_retry_answers_it() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("here at last"));
    let rig = rig(&server, |_| {});
    let session = rig.session();
    // What the app does before it builds an engine (which fails without a provider).
    let begun = rig
        .engine
        .turns()
        .commit(
            &session,
            vec![ContentPart::text("what I typed\nsecond line")],
            CancellationToken::new(),
        )
        .await
        .unwrap();
    let user_id = begun.user_message_id();
    // The claim is held until the turn is answered or dropped.
    let busy = rig
        .engine
        .turns()
        .commit(
            &session,
            vec![ContentPart::text("again")],
            CancellationToken::new(),
        )
        .await;
    assert!(matches!(busy, Err(EngineError::Busy(_))));
    drop(begun);
    let stored = rig.store.list_messages(&session).unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].id, user_id);
    assert_eq!(stored[0].text(), "what I typed\nsecond line");
    let title = rig.store.get_session(&session).unwrap().unwrap().title;
    assert_eq!(title, "what I typed");
    // Retry: regenerate from the stored message.
    let sink = |_: EngineEvent| {};
    let summary = rig
        .engine
        .regenerate(&session, &sink, CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(summary.end, TurnEnd::Completed);
    let stored = rig.store.list_messages(&session).unwrap();
    assert_eq!(stored.len(), 2);
    assert_eq!(stored[1].text(), "here at last");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn untitled_chats_are_named_in_the_settings_language_and_titled_by_their_first_message() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("好的"));
    server.push(Reply::text("second"));
    let rig = rig(&server, |o| o.language = hearth_protocol::Language::ZhCn);
    let session = rig.session();
    let title = |rig: &Rig| rig.store.get_session(&session).unwrap().unwrap().title;
    assert_eq!(title(&rig), "新对话");
    let long = "请帮我写一封很长很长的邮件".repeat(6);
    rig.send(&session, &long, CancellationToken::new()).await;
    let first: String = long.chars().take(60).collect();
    assert_eq!(title(&rig), format!("{first}…"));
    // A titled chat keeps its title.
    rig.store.rename_session(&session, "mine").unwrap();
    rig.send(&session, "another", CancellationToken::new())
        .await;
    assert_eq!(title(&rig), "mine");
}
