//! The indexes' backlog (migration 7): settled messages wait in `messages_unindexed` until the
//! indexing thread or a search takes them, and rewrites and deletes in either state keep the
//! indexes exact.

use std::time::{Duration, Instant};

use hearth_protocol::{ContentPart, MessageStatus, Role};
use rusqlite::Connection;

use super::backlog::{index_backlog, INDEX_QUEUED};
use crate::migrations::{apply, MIGRATIONS};
use crate::test_support::{
    assert_search_indexes_exact, insert_raw_message, new_session, TempStore,
};
use crate::{NewMessage, Store};

fn count(conn: &Connection, sql: &str) -> i64 {
    conn.query_row(sql, [], |row| row.get(0)).unwrap()
}

fn queued(store: &Store) -> i64 {
    count(&store.conn(), "SELECT count(*) FROM messages_unindexed")
}

/// Messages whose words index holds `word`, read from the index itself (no search, which would
/// index the backlog first).
fn indexed(conn: &Connection, word: &str) -> i64 {
    conn.query_row(
        "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?1",
        [word],
        |row| row.get(0),
    )
    .unwrap()
}

fn say(store: &Store, session: &str, text: &str) -> i64 {
    let new = NewMessage::new(session, Role::User, vec![ContentPart::text(text)]);
    store.insert_message(&new).unwrap().id
}

fn rewrite(store: &Store, id: i64, text: &str) {
    store
        .update_streaming(id, &[ContentPart::text(text)], &[])
        .unwrap();
}

fn found(store: &Store, query: &str) -> Vec<i64> {
    let hits = store.search_messages(query, 20, None, None).unwrap();
    hits.iter().map(|h| h.message_id).collect()
}

/// Waits until the background thread has emptied the backlog (a search would do it itself).
fn wait_until_indexed(store: &Store) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while queued(store) > 0 {
        assert!(Instant::now() < deadline, "the backlog was never indexed");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn settled_messages_wait_in_the_backlog_until_a_search_indexes_them() {
    // An in-memory store has no indexing thread, so nothing but the search takes the backlog.
    let store = Store::open_in_memory().unwrap();
    store.create_session(&new_session("s")).unwrap();
    let id = say(&store, "s", "walrus 海象");
    let mut streaming = NewMessage::new("s", Role::Assistant, vec![ContentPart::text("walrus")]);
    streaming.status = MessageStatus::Streaming;
    store.insert_message(&streaming).unwrap();
    assert_eq!(queued(&store), 1, "only the settled message is queued");
    assert_eq!(indexed(&store.conn(), "walrus"), 0);
    assert_eq!(found(&store, "walrus"), [id]);
    assert_eq!(found(&store, "海象"), [id]);
    assert_eq!(queued(&store), 0);
    assert_eq!(indexed(&store.conn(), "walrus"), 1);
}

#[test]
fn rewrites_and_deletes_of_queued_and_indexed_messages_keep_the_indexes_exact() {
    let store = Store::open_in_memory().unwrap();
    store.create_session(&new_session("s")).unwrap();
    store.create_session(&new_session("gone")).unwrap();
    let was_indexed = say(&store, "s", "kiwi");
    say(&store, "gone", "lychee");
    index_backlog(&mut store.conn()).unwrap();
    let still_queued = say(&store, "s", "papaya");
    say(&store, "gone", "quince");
    assert_eq!(queued(&store), 2);

    rewrite(&store, was_indexed, "mango");
    rewrite(&store, still_queued, "nectarine");
    assert_eq!(
        indexed(&store.conn(), "kiwi"),
        0,
        "the old text left at once"
    );
    assert_eq!(queued(&store), 3, "the rewritten message waits again");
    store.delete_session("gone").unwrap();
    assert_eq!(queued(&store), 2, "a deleted message leaves the backlog");
    assert_eq!(indexed(&store.conn(), "lychee"), 0, "and the index");

    assert_eq!(found(&store, "mango"), [was_indexed]);
    assert_eq!(found(&store, "nectarine"), [still_queued]);
    for gone in ["kiwi", "papaya", "lychee", "quince"] {
        assert!(found(&store, gone).is_empty(), "{gone}");
    }
    assert_search_indexes_exact(&store.conn());
}

#[test]
fn the_thread_indexes_once_writes_pause() {
    let t = TempStore::new();
    t.session("s");
    let id = t.say("s", Role::User, "narwhal").id;
    wait_until_indexed(&t.store);
    assert_eq!(indexed(&t.store.conn(), "narwhal"), 1);
    assert_eq!(found(&t.store, "narwhal"), [id]);
    assert_search_indexes_exact(&t.store.conn());
}

#[test]
fn a_backlog_left_by_an_earlier_run_is_indexed_after_opening() {
    let t = TempStore::new();
    let path = t.path();
    drop(t.store);
    // Another process (or one killed before its thread ran) left a queued message behind.
    let mut conn = Connection::open(&path).unwrap();
    apply(&mut conn, MIGRATIONS).unwrap();
    insert_raw_message(&conn, "user", "complete", "okapi");
    assert_eq!(count(&conn, "SELECT count(*) FROM messages_unindexed"), 1);
    drop(conn);

    let store = Store::open(&path).unwrap();
    wait_until_indexed(&store);
    assert_eq!(indexed(&store.conn(), "okapi"), 1);
    assert_search_indexes_exact(&store.conn());
}

#[test]
fn indexing_a_batch_reads_the_queue_not_every_message() {
    let store = Store::open_in_memory().unwrap();
    for sql in INDEX_QUEUED {
        let select = &sql[sql.find("SELECT").unwrap()..];
        let conn = store.conn();
        let mut stmt = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {select}"))
            .unwrap();
        let plan: Vec<String> = stmt
            .query_map([1], |row| row.get::<_, String>(3))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            plan,
            [
                "SEARCH u USING INTEGER PRIMARY KEY (rowid<?)",
                "SEARCH m USING INTEGER PRIMARY KEY (rowid=?)"
            ],
            "{select}"
        );
    }
}

#[test]
fn two_stores_on_one_file_index_each_message_once() {
    // The app and `hearth-cli` may share a data dir: both index the one backlog, at once.
    let t = TempStore::new();
    let other = Store::open(&t.path()).unwrap();
    t.session("s");
    let ids: Vec<i64> = (0..300)
        .map(|n| t.say("s", Role::User, &format!("heron {n}")).id)
        .collect();
    std::thread::scope(|scope| {
        for store in [&t.store, &other] {
            scope.spawn(move || found(store, "heron"));
        }
    });
    let all = t.store.search_messages("heron", 200, None, None).unwrap();
    assert_eq!(all.len(), 200);
    assert!(all.iter().all(|hit| ids.contains(&hit.message_id)));
    assert_eq!(indexed(&t.store.conn(), "heron"), 300);
    assert_search_indexes_exact(&t.store.conn());
}
