//! Search indexes hold exactly the messages that are not streaming (migration 0006): a reply
//! enters them when it settles, and deletes of either kind keep them exact (rewrites: `tests`).

use hearth_protocol::{AppError, ContentPart, MessageStatus, Role};
use rusqlite::Connection;

use super::tests::found;
use crate::migrations::{apply, MIGRATIONS};
use crate::test_support::{assert_search_indexes_exact, insert_raw_message, TempStore};
use crate::NewMessage;

fn streaming(t: &TempStore, text: &str) -> i64 {
    let mut new = NewMessage::new("s", Role::Assistant, vec![ContentPart::text(text)]);
    new.status = MessageStatus::Streaming;
    t.store.insert_message(&new).unwrap().id
}

#[test]
fn a_reply_is_searchable_once_it_stops_streaming() {
    let t = TempStore::new();
    t.session("s");
    let id = streaming(&t, "zebra");
    t.store
        .update_streaming(id, &[ContentPart::text("zebra quokka 斑马奔跑")], &[])
        .unwrap();
    for query in ["zebra", "quokka", "uokk", "斑马"] {
        assert!(found(&t, query).is_empty(), "{query} while streaming");
    }
    t.store
        .finish_message(id, MessageStatus::Interrupted, None, None)
        .unwrap();
    for query in ["zebra", "quokka", "uokk", "斑马"] {
        assert_eq!(found(&t, query), [id], "{query} once settled");
    }
    // A status change that keeps the text does not index it twice.
    t.store
        .finish_message(
            id,
            MessageStatus::Failed,
            None,
            Some(&AppError::internal("later")),
        )
        .unwrap();
    assert_eq!(found(&t, "quokka"), [id]);
    assert_search_indexes_exact(&t.store.conn());
}

#[test]
fn deleting_streaming_and_settled_rows_keeps_the_indexes_exact() {
    let t = TempStore::new();
    t.session("s");
    t.session("t");
    let kept = t.say("t", Role::User, "otter");
    t.say("s", Role::User, "otter beaver");
    streaming(&t, "otter in progress");
    t.store.delete_session("s").unwrap();
    assert_eq!(found(&t, "otter"), [kept.id]);
    assert!(found(&t, "beaver").is_empty());
    assert_search_indexes_exact(&t.store.conn());
    assert_eq!(t.store.integrity_check().unwrap(), "ok");
}

#[test]
fn migrating_takes_rows_streaming_at_the_time_out_of_the_indexes() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = Connection::open(dir.path().join("hearth.db")).unwrap();
    // Schema 5, whose triggers indexed streaming rows too.
    apply(&mut conn, &MIGRATIONS[..5]).unwrap();
    insert_raw_message(&conn, "assistant", "streaming", "puffin");
    apply(&mut conn, MIGRATIONS).unwrap();
    let indexed: i64 = conn
        .query_row(
            "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'puffin'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(indexed, 0);
    conn.execute("DELETE FROM messages", []).unwrap();
    assert_search_indexes_exact(&conn);
}
