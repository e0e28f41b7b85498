//! Search indexes hold exactly the messages that are not streaming (migration 0006): a reply
//! enters them when it settles, and deletes of either kind keep them exact (rewrites: `tests`).

use hearth_protocol::{ContentPart, MessageStatus, Role};
use rusqlite::Connection;

use super::tests::found;
use crate::migrations::{apply, MIGRATIONS};
use crate::test_support::TempStore;
use crate::NewMessage;

/// FTS5's own check of both indexes against the messages table (`rank` 1: the content too). It
/// only holds while no row is streaming, since streaming rows are left out on purpose.
fn assert_indexes_match_messages(conn: &Connection) {
    for table in ["messages_fts", "messages_trigram"] {
        conn.execute(
            &format!("INSERT INTO {table} ({table}, rank) VALUES ('integrity-check', 1)"),
            [],
        )
        .unwrap_or_else(|e| panic!("{table}: {e}"));
    }
}

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
        .finish_message(id, MessageStatus::Failed, None, Some("later"))
        .unwrap();
    assert_eq!(found(&t, "quokka"), [id]);
    assert_indexes_match_messages(&t.store.conn());
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
    assert_indexes_match_messages(&t.store.conn());
    assert_eq!(t.store.integrity_check().unwrap(), "ok");
}

#[test]
fn migrating_takes_rows_streaming_at_the_time_out_of_the_indexes() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = Connection::open(dir.path().join("hearth.db")).unwrap();
    // Schema 5, whose triggers indexed streaming rows too.
    apply(&mut conn, &MIGRATIONS[..5]).unwrap();
    conn.execute_batch(
        "INSERT INTO sessions (id, title, tool_profile, created_at, updated_at) \
             VALUES ('s', 'S', 'coding', 0, 0);
         INSERT INTO messages (session_id, role, kind, content, tool_calls, status, text, \
             words, created_at, updated_at) \
             VALUES ('s', 'assistant', 'normal', '[]', '[]', 'streaming', 'puffin', 'puffin', 0, 0);",
    )
    .unwrap();
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
    assert_indexes_match_messages(&conn);
}
