//! Streaming writes: flushes, the final status (both in one commit) and recovery by owner.

use hearth_protocol::{AppError, ContentPart, MessageStatus, Role, Usage};

use crate::test_support::{call, TempStore};
use crate::{MessageEnd, NewMessage};

#[test]
fn streaming_updates_then_finish() {
    let t = TempStore::new();
    t.session("s");
    let mut new = NewMessage::new("s", Role::Assistant, Vec::new());
    new.status = MessageStatus::Streaming;
    new.model = Some("m".into());
    let started = t.store.insert_message(&new).unwrap();

    t.tick();
    t.store
        .update_streaming(started.id, &[ContentPart::text("Hel")], &[])
        .unwrap();
    let calls = [call("c9", "web_search", r#"{"query":"rust"}"#)];
    t.store
        .update_streaming(started.id, &[ContentPart::text("Hello")], &calls)
        .unwrap();
    let flushed = t.store.get_message(started.id).unwrap().unwrap();
    assert_eq!(flushed.text(), "Hello");
    assert_eq!(flushed.tool_calls, calls);
    assert_eq!(flushed.status, MessageStatus::Streaming);
    assert!(flushed.updated_at > started.updated_at);
    assert_eq!(flushed.created_at, started.created_at);

    let usage = Usage {
        input_tokens: 10,
        output_tokens: 2,
    };
    t.store
        .finish_message(started.id, MessageStatus::Complete, Some(usage), None)
        .unwrap();
    let done = t.store.get_message(started.id).unwrap().unwrap();
    assert_eq!(done.status, MessageStatus::Complete);
    assert_eq!(done.usage, Some(usage));
    assert_eq!(done.error, None);
    assert_eq!(done.error_code, None);

    let refused = AppError::MessageTooLong {
        tokens: 9_000,
        window: 8_192,
    };
    t.store
        .finish_message(started.id, MessageStatus::Failed, None, Some(&refused))
        .unwrap();
    let failed = t.store.get_message(started.id).unwrap().unwrap();
    assert_eq!(failed.status, MessageStatus::Failed);
    assert_eq!(failed.usage, None);
    // The English text for the CLI and old readers, the typed error for the viewer's language.
    assert_eq!(failed.error, Some(refused.to_string()));
    assert_eq!(failed.error_code, Some(refused));
}

#[test]
fn finish_streaming_writes_content_and_end_together() {
    let t = TempStore::new();
    t.session("s");
    let mut new = NewMessage::new("s", Role::Assistant, Vec::new());
    new.status = MessageStatus::Streaming;
    let started = t.store.insert_message(&new).unwrap();
    let calls = [call("c1", "calculator", r#"{"expression":"6*7"}"#)];
    let stalled = AppError::Stalled { seconds: 60 };
    let end = MessageEnd {
        status: MessageStatus::Failed,
        usage: Some(Usage {
            input_tokens: 3,
            output_tokens: 4,
        }),
        error: Some(&stalled),
    };
    t.store
        .finish_streaming(
            started.id,
            &[ContentPart::text("partial answer")],
            &calls,
            end,
        )
        .unwrap();
    let done = t.store.get_message(started.id).unwrap().unwrap();
    assert_eq!(done.text(), "partial answer");
    assert_eq!(done.tool_calls, calls);
    assert_eq!(done.status, MessageStatus::Failed);
    assert_eq!(done.usage, end.usage);
    assert_eq!(done.error, Some(stalled.to_string()));
    assert_eq!(done.error_code, Some(stalled.clone()));
    let hits = t.store.search_messages("partial", 10, None, None).unwrap();
    assert_eq!(hits.len(), 1, "the final text is indexed");

    let err = t
        .store
        .finish_streaming(9999, &[ContentPart::text("x")], &[], end)
        .unwrap_err();
    assert_eq!(err.to_string(), "message not found: 9999");
}

#[test]
fn streaming_rows_become_interrupted_at_start_up() {
    let t = TempStore::new();
    t.session("s");
    let complete = t.say("s", Role::User, "hi");
    let mut new = NewMessage::new("s", Role::Assistant, vec![ContentPart::text("partial")]);
    new.status = MessageStatus::Streaming;
    let a = t.store.insert_message(&new).unwrap();
    let b = t.store.insert_message(&new).unwrap();
    let t = t.reopen();
    assert_eq!(t.store.mark_streaming_interrupted().unwrap(), 2);
    assert_eq!(t.store.mark_streaming_interrupted().unwrap(), 0);
    for id in [a.id, b.id] {
        let message = t.store.get_message(id).unwrap().unwrap();
        assert_eq!(message.status, MessageStatus::Interrupted);
        assert_eq!(message.text(), "partial");
    }
    let untouched = t.store.get_message(complete.id).unwrap().unwrap();
    assert_eq!(untouched, complete);
}

#[test]
fn replies_another_live_process_is_streaming_are_left_alone() {
    let t = TempStore::new();
    t.session("s");
    let mut new = NewMessage::new("s", Role::Assistant, vec![ContentPart::text("partial")]);
    new.status = MessageStatus::Streaming;
    let live = t.store.insert_message(&new).unwrap();
    let legacy = t.store.insert_message(&new).unwrap();
    let mut other = std::process::Command::new("sleep")
        .arg("30")
        .spawn()
        .unwrap();
    let other_owner = crate::owner::identity(other.id()).unwrap();
    {
        let conn = t.store.conn();
        conn.execute(
            "UPDATE messages SET owner = ?1 WHERE id = ?2",
            rusqlite::params![other_owner, live.id],
        )
        .unwrap();
        conn.execute(
            "UPDATE messages SET owner = NULL WHERE id = ?1",
            [legacy.id],
        )
        .unwrap();
    }
    let status = |id| t.store.get_message(id).unwrap().unwrap().status;

    assert_eq!(
        t.store.mark_streaming_interrupted().unwrap(),
        1,
        "only the ownerless row"
    );
    assert_eq!(status(live.id), MessageStatus::Streaming);
    assert_eq!(status(legacy.id), MessageStatus::Interrupted);

    // Same pid, different start time: an unrelated process reusing the pid is not the owner.
    let pid = other.id();
    {
        let conn = t.store.conn();
        conn.execute(
            "UPDATE messages SET owner = ?1 WHERE id = ?2",
            rusqlite::params![format!("{pid}:1"), live.id],
        )
        .unwrap();
    }
    assert_eq!(t.store.mark_streaming_interrupted().unwrap(), 1);
    assert_eq!(status(live.id), MessageStatus::Interrupted);

    other.kill().unwrap();
    other.wait().unwrap();
    let gone = t.store.insert_message(&new).unwrap();
    {
        let conn = t.store.conn();
        conn.execute(
            "UPDATE messages SET owner = ?1 WHERE id = ?2",
            rusqlite::params![other_owner, gone.id],
        )
        .unwrap();
    }
    assert_eq!(
        t.store.mark_streaming_interrupted().unwrap(),
        1,
        "its process is gone"
    );
    assert_eq!(status(gone.id), MessageStatus::Interrupted);
}
