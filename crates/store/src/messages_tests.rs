//! Tests of message storage.

use hearth_protocol::{ContentPart, MessageKind, MessageStatus, Role, ToolResult, Usage};

use crate::test_support::{call, new_session, TempStore};
use crate::{NewMessage, StoreError};

fn assert_session_not_found(err: &StoreError) {
    assert!(
        matches!(
            err,
            StoreError::NotFound {
                what: "session",
                ..
            }
        ),
        "{err:?}"
    );
}

fn full_message() -> NewMessage {
    NewMessage {
        session_id: "s".into(),
        role: Role::Assistant,
        kind: MessageKind::Normal,
        content: vec![
            ContentPart::text("Here is the chart 📈 with \"quotes\" and \0 nul"),
            ContentPart::Image {
                mime_type: "image/png".into(),
                data: "iVBORw0KGgo=".into(),
                name: Some("chart.png".into()),
            },
            ContentPart::File {
                name: "data.csv".into(),
                path: "uploads/data.csv".into(),
                size: 1234,
                mime_type: None,
            },
        ],
        tool_calls: vec![call("c1", "read_file", r#"{"path":"data.csv"}"#)],
        tool_result: None,
        status: MessageStatus::Complete,
        model: Some("gpt-test".into()),
        usage: Some(Usage {
            input_tokens: 120,
            output_tokens: 45,
        }),
        error: None,
        error_code: None,
        summary_through: None,
    }
}

#[test]
fn insert_returns_what_get_reads_back_and_touches_the_session() {
    let t = TempStore::new();
    let session = t.session("s");
    t.tick();
    let stored = t.store.insert_message(&full_message()).unwrap();
    assert!(stored.id > 0);
    assert_eq!(stored.created_at, stored.updated_at);
    assert_eq!(
        t.store.get_message(stored.id).unwrap(),
        Some(stored.clone())
    );

    let result = ToolResult {
        call_id: "c1".into(),
        name: "read_file".into(),
        content: r#"{"content":"a,b\n1,2"}"#.into(),
        is_error: false,
        duration_ms: 7,
        images: Vec::new(),
        views: Vec::new(),
    };
    let mut tool = NewMessage::new("s", Role::Tool, Vec::new());
    tool.tool_result = Some(result.clone());
    let tool = t.store.insert_message(&tool).unwrap();
    assert!(tool.id > stored.id);
    assert_eq!(
        t.store.get_message(tool.id).unwrap().unwrap().tool_result,
        Some(result)
    );

    let after = t.store.get_session("s").unwrap().unwrap();
    assert!(after.updated_at > session.updated_at);
    assert_eq!(after.message_count, 2);
    assert_eq!(t.store.get_message(9999).unwrap(), None);
}

#[test]
fn large_messages_round_trip() {
    let t = TempStore::new();
    t.session("s");
    let big = "天气 weather ".repeat(100_000); // ~1.5 MB
    let stored = t.say("s", Role::User, &big);
    let read = t.store.get_message(stored.id).unwrap().unwrap();
    assert_eq!(read.text(), big);
    assert_eq!(
        t.store
            .search_messages("天气", 5, None, None)
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn inserting_into_an_unknown_session_writes_nothing() {
    let t = TempStore::new();
    let mut new = full_message();
    new.session_id = "missing".into();
    let err = t.store.insert_message(&new).unwrap_err();
    assert_session_not_found(&err);
    let conn = t.store.conn();
    let count: i64 = conn
        .query_row("SELECT COUNT(*) FROM messages", [], |r| r.get(0))
        .unwrap();
    assert_eq!(count, 0);
}

#[test]
fn several_messages_are_stored_in_order_all_or_none() {
    let t = TempStore::new();
    t.session("s");
    let result = |call_id: &str, content: &str| NewMessage {
        tool_result: Some(ToolResult {
            call_id: call_id.into(),
            name: "calculator".into(),
            content: content.into(),
            is_error: false,
            duration_ms: 1,
            images: Vec::new(),
            views: Vec::new(),
        }),
        ..NewMessage::new("s", Role::Tool, Vec::new())
    };
    let stored = t
        .store
        .insert_messages(&[result("c1", "42"), result("c2", "43")])
        .unwrap();
    assert_eq!(t.store.list_messages("s").unwrap(), stored);
    assert!(stored[0].id < stored[1].id);

    // One row for an unknown session: the whole batch is refused and nothing is kept.
    let mut stray = result("c4", "45");
    stray.session_id = "missing".into();
    let err = t
        .store
        .insert_messages(&[result("c3", "44"), stray])
        .unwrap_err();
    assert_session_not_found(&err);
    assert_eq!(t.store.list_messages("s").unwrap(), stored);
    assert_eq!(t.store.insert_messages(&[]).unwrap(), []);
}

#[test]
fn messages_after_one_are_the_later_ones_of_that_session() {
    let t = TempStore::new();
    t.session("s");
    t.session("other");
    let first = t.say("s", Role::User, "one");
    let second = t.say("s", Role::Assistant, "two");
    t.say("other", Role::User, "elsewhere");
    let third = t.say("s", Role::User, "three");
    assert_eq!(
        t.store.list_messages_after("s", first.id).unwrap(),
        [second, third.clone()]
    );
    assert_eq!(t.store.list_messages_after("s", third.id).unwrap(), []);
    assert_eq!(
        t.store.list_messages_after("s", 0).unwrap(),
        t.store.list_messages("s").unwrap()
    );
}

#[test]
fn unknown_message_ids_are_not_found() {
    let t = TempStore::new();
    t.session("s");
    let err = t.store.update_streaming(42, &[], &[]).unwrap_err();
    assert_eq!(err.to_string(), "message not found: 42");
    let err = t
        .store
        .finish_message(42, MessageStatus::Complete, None, None)
        .unwrap_err();
    assert!(matches!(
        err,
        StoreError::NotFound {
            what: "message",
            ..
        }
    ));
}

#[test]
fn listing_and_paging_follow_id_order() {
    let t = TempStore::new();
    t.session("s");
    t.session("other");
    let ids: Vec<i64> = (0..7)
        .map(|i| {
            t.say("other", Role::User, "noise");
            t.say("s", Role::User, &format!("message {i}")).id
        })
        .collect();
    let listed: Vec<i64> = t
        .store
        .list_messages("s")
        .unwrap()
        .iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(listed, ids);
    let page = |offset, limit| -> Vec<i64> {
        t.store
            .list_messages_page("s", offset, limit)
            .unwrap()
            .iter()
            .map(|m| m.id)
            .collect()
    };
    assert_eq!(page(0, 3), ids[0..3]);
    assert_eq!(page(3, 3), ids[3..6]);
    assert_eq!(page(6, 3), ids[6..]);
    assert!(page(7, 3).is_empty());
    assert!(page(0, 0).is_empty());
    assert!(page(usize::MAX, usize::MAX).is_empty());
    assert_eq!(page(5, usize::MAX), ids[5..]);
    assert!(t.store.list_messages("missing").unwrap().is_empty());
}

#[test]
fn latest_summary_is_the_newest_summary() {
    let t = TempStore::new();
    t.session("s");
    assert_eq!(t.store.latest_summary("s").unwrap(), None);
    let first = t.say("s", Role::User, "first");
    let summary = |through: i64, text: &str| {
        let mut new = NewMessage::new("s", Role::System, vec![ContentPart::text(text)]);
        new.kind = MessageKind::Summary;
        new.summary_through = Some(through);
        t.store.insert_message(&new).unwrap()
    };
    summary(first.id, "older summary");
    let second = t.say("s", Role::User, "second");
    let newest = summary(second.id, "newer summary");
    t.say("s", Role::Assistant, "after the summary");
    let found = t.store.latest_summary("s").unwrap().unwrap();
    assert_eq!(found, newest);
    assert_eq!(found.kind, MessageKind::Summary);
    assert_eq!(found.summary_through, Some(second.id));
    assert_eq!(t.store.latest_summary("missing").unwrap(), None);
}

#[test]
fn delete_after_removes_only_later_messages_of_that_session() {
    let t = TempStore::new();
    t.session("s");
    t.session("other");
    let keep = t.say("s", Role::User, "question");
    t.say("s", Role::Assistant, "first answer");
    let other = t.say("other", Role::User, "unrelated answer");
    t.say("s", Role::Assistant, "second answer");
    assert_eq!(t.store.delete_messages_after("s", keep.id).unwrap(), 2);
    assert_eq!(t.store.list_messages("s").unwrap(), vec![keep.clone()]);
    assert_eq!(t.store.list_messages("other").unwrap(), vec![other]);
    assert_eq!(t.store.delete_messages_after("s", keep.id).unwrap(), 0);
    let hits = t.store.search_messages("answer", 10, None, None).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].session_id, "other");
    let err = t.store.delete_messages_after("missing", 0).unwrap_err();
    assert!(matches!(
        err,
        StoreError::NotFound {
            what: "session",
            ..
        }
    ));
}

#[test]
fn a_fork_holds_its_copies_or_on_a_failure_midway_is_not_there_at_all() {
    let t = TempStore::new();
    let copy = |text: &str| NewMessage::new("source", Role::User, vec![ContentPart::text(text)]);
    let fork = t
        .store
        .fork_session(&new_session("fork-1"), &[copy("one"), copy("two")])
        .unwrap();
    assert_eq!(fork.message_count, 2);
    let texts: Vec<String> = t
        .store
        .list_messages("fork-1")
        .unwrap()
        .iter()
        .map(|m| m.text())
        .collect();
    assert_eq!(
        texts,
        ["one", "two"],
        "stored under the fork's id, in order"
    );

    // The disk refuses the third copy (a trigger stands in for a full disk or a constraint).
    t.store
        .conn()
        .execute_batch(
            "CREATE TRIGGER refuse_poison BEFORE INSERT ON messages WHEN NEW.text = 'poison' \
             BEGIN SELECT RAISE(ABORT, 'disk refused the write'); END;",
        )
        .unwrap();
    let copies = [copy("one"), copy("two"), copy("poison"), copy("four")];
    let err = t
        .store
        .fork_session(&new_session("fork-2"), &copies)
        .unwrap_err();
    assert!(err.to_string().contains("disk refused"), "{err}");
    assert_eq!(t.store.get_session("fork-2").unwrap(), None, "no session");
    let rows: i64 = t
        .store
        .conn()
        .query_row(
            "SELECT COUNT(*) FROM messages WHERE session_id = 'fork-2'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(rows, 0, "no copied message either");
    assert_eq!(
        t.store.list_sessions().unwrap().len(),
        1,
        "only the first fork"
    );

    let taken = t
        .store
        .fork_session(&new_session("fork-1"), &[copy("again")])
        .unwrap_err();
    assert!(taken.to_string().contains("UNIQUE"), "{taken}");
    assert_eq!(t.store.list_messages("fork-1").unwrap().len(), 2);
}
