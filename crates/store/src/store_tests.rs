//! Tests of opening stores: connection settings, persistence, migrations, integrity.

use std::sync::Arc;

use hearth_protocol::{ContentPart, Role};
use rusqlite::Connection;

use crate::migrations::{apply, MIGRATIONS};
use crate::test_support::{new_session, TempStore};
use crate::{Store, StoreError};

fn pragma_text(store: &Store, name: &str) -> String {
    let conn = store.conn();
    conn.query_row(&format!("PRAGMA {name}"), [], |row| {
        row.get::<_, rusqlite::types::Value>(0)
    })
    .map(|value| match value {
        rusqlite::types::Value::Integer(i) => i.to_string(),
        rusqlite::types::Value::Text(t) => t,
        other => format!("{other:?}"),
    })
    .unwrap()
}

#[test]
fn open_creates_missing_directories_and_configures_the_connection() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested/data/hearth.db");
    let store = Store::open(&path).unwrap();
    assert!(path.exists());
    assert_eq!(pragma_text(&store, "journal_mode"), "wal");
    assert_eq!(pragma_text(&store, "foreign_keys"), "1");
    assert_eq!(pragma_text(&store, "synchronous"), "1"); // NORMAL
    assert_eq!(pragma_text(&store, "busy_timeout"), "5000");
    assert_eq!(pragma_text(&store, "cache_size"), "-32768");
    assert_eq!(
        pragma_text(&store, "user_version"),
        MIGRATIONS.len().to_string()
    );
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn data_survives_reopening_and_migrations_run_once() {
    let t = TempStore::new();
    t.session("desktop:a");
    let message = t.say("desktop:a", Role::User, "remember the weather report");
    let t = t.reopen().reopen();
    assert_eq!(
        pragma_text(&t.store, "user_version"),
        MIGRATIONS.len().to_string()
    );
    assert_eq!(t.store.get_message(message.id).unwrap(), Some(message));
    assert_eq!(t.store.list_sessions().unwrap().len(), 1);
    let hits = t.store.search_messages("weather", 10, None, None).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(t.store.integrity_check().unwrap(), "ok");
}

#[test]
fn a_database_from_a_newer_version_is_refused_untouched() {
    let t = TempStore::new();
    let path = t.path();
    drop(t.store);
    Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    let err = Store::open(&path).err().unwrap();
    assert!(matches!(err, StoreError::SchemaTooNew { found: 99, .. }));
    assert!(err.to_string().contains("newer Hearth"), "{err}");
    let version: i64 = Connection::open(&path)
        .unwrap()
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .unwrap();
    assert_eq!(version, 99);
}

#[test]
fn a_failing_migration_is_rolled_back_and_earlier_ones_kept() {
    let mut conn = Connection::open_in_memory().unwrap();
    let migrations = [
        "CREATE TABLE a (x);",
        "CREATE TABLE b (x); CREATE TABLE a (y);",
    ];
    assert!(matches!(
        apply(&mut conn, &migrations),
        Err(StoreError::Sqlite(_))
    ));
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .unwrap();
    assert_eq!(version, 1);
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert_eq!(tables, ["a"]);
}

#[test]
fn unusable_paths_fail_with_readable_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain-file");
    std::fs::write(&file, "not a directory").unwrap();
    let err = Store::open(&file.join("hearth.db")).err().unwrap();
    assert!(matches!(err, StoreError::Io { .. }), "{err:?}");
    assert!(err.to_string().starts_with("cannot create"), "{err}");

    let err = Store::open(dir.path()).err().unwrap();
    assert!(matches!(err, StoreError::Sqlite(_)), "{err:?}");

    let garbage = dir.path().join("garbage.db");
    std::fs::write(&garbage, vec![0x42u8; 8192]).unwrap();
    let err = Store::open(&garbage).err().unwrap();
    assert!(err.to_string().contains("not a database"), "{err}");
}

#[test]
fn in_memory_stores_work_and_are_private() {
    let one = Store::open_in_memory().unwrap();
    let two = Store::open_in_memory().unwrap();
    one.create_session(&new_session("cli:1")).unwrap();
    assert_eq!(one.list_sessions().unwrap().len(), 1);
    assert!(two.list_sessions().unwrap().is_empty());
}

#[test]
fn the_store_is_shared_across_threads_and_connections() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Store>();

    let t = TempStore::new();
    t.session("desktop:a");
    let store = Arc::new(t.store);
    let writers: Vec<_> = (0..4)
        .map(|n| {
            let store = Arc::clone(&store);
            std::thread::spawn(move || {
                for i in 0..25 {
                    let new = crate::NewMessage::new(
                        "desktop:a",
                        Role::User,
                        vec![hearth_protocol::ContentPart::text(format!(
                            "thread {n} line {i}"
                        ))],
                    );
                    store.insert_message(&new).unwrap();
                }
            })
        })
        .collect();
    for writer in writers {
        writer.join().unwrap();
    }
    // A second connection to the same file (the CLI next to the app) sees every write.
    let other = Store::open(&t.dir.path().join("hearth.db")).unwrap();
    assert_eq!(other.list_messages("desktop:a").unwrap().len(), 100);
    assert_eq!(
        other
            .search_messages("thread", 200, None, None)
            .unwrap()
            .len(),
        100
    );
}

#[test]
fn the_wal_is_still_checkpointed_with_automatic_checkpoints_off() {
    let t = TempStore::new();
    let size = |path: &std::path::Path| std::fs::metadata(path).map_or(0, |m| m.len());
    let page = 4096;
    let before = size(&t.path());
    // One commit of twice the threshold: the checkpoint thread, signalled by the WAL hook that
    // replaced SQLite's automatic checkpoint, must copy it into the database file.
    t.store
        .conn()
        .execute_batch(&format!(
            "CREATE TABLE filler (data BLOB);
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {})
             INSERT INTO filler SELECT randomblob(4000) FROM n;",
            2 * crate::checkpoint::CHECKPOINT_PAGES
        ))
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while size(&t.path()) < before + 500 * page {
        assert!(
            std::time::Instant::now() < deadline,
            "no checkpoint copied the WAL into the database file"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(t.store.integrity_check().unwrap(), "ok");
}

#[test]
fn stored_not_delivered_errors_become_delivery_failed_with_their_target() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hearth.db");
    let mut conn = Connection::open(&path).unwrap();
    let last = MIGRATIONS
        .iter()
        .position(|m| m.contains("'not_delivered'"))
        .unwrap();
    apply(&mut conn, &MIGRATIONS[..last]).unwrap();
    let old = r#"{"code":"not_delivered","params":{"reason":"Telegram answered 500"}}"#;
    conn.execute_batch(&format!(
        "INSERT INTO sessions (id, title, tool_profile, created_at, updated_at) \
         VALUES ('telegram:42', 'T', 'full', 0, 0);
         INSERT INTO messages (session_id, role, kind, content, tool_calls, status, text, words, \
         created_at, updated_at, error_code) \
         VALUES ('telegram:42', 'assistant', 'normal', '[]', '[]', 'failed', 'hi', 'hi', 0, 0, \
         '{old}');
         INSERT INTO jobs (id, name, schedule, tz, prompt, target, created_at, updated_at) \
         VALUES ('j', 'rain', '{{}}', 'UTC', 'p', 'telegram:7', 0, 0);
         INSERT INTO job_runs (job_id, started_at, status, error_code) \
         VALUES ('j', 0, 'failed', '{old}');"
    ))
    .unwrap();
    drop(conn);

    let store = Store::open(&path).unwrap();
    let failed = |target: &str| hearth_protocol::AppError::DeliveryFailed {
        target: target.into(),
        reason: "Telegram answered 500".into(),
    };
    let message = &store.list_messages("telegram:42").unwrap()[0];
    assert_eq!(message.error_code, Some(failed("telegram:42")));
    let run = &store.list_job_runs("j", 1).unwrap()[0];
    assert_eq!(run.error_code, Some(failed("telegram:7")));
}

#[test]
fn delivered_artifacts_stored_as_file_parts_become_artifact_parts_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hearth.db");
    let mut conn = Connection::open(&path).unwrap();
    let last = MIGRATIONS
        .iter()
        .position(|m| m.contains("'artifact:%'"))
        .unwrap();
    apply(&mut conn, &MIGRATIONS[..last]).unwrap();
    let content = r#"[{"type":"text","text":"The report"},
        {"type":"file","name":"q3.md","path":"artifact:art_7","size":9,"mime_type":"text/markdown"},
        {"type":"file","name":"notes.txt","path":"docs/artifact:x.txt","size":3}]"#;
    conn.execute_batch(&format!(
        "INSERT INTO sessions (id, title, tool_profile, created_at, updated_at) \
         VALUES ('desktop:1', 'D', 'full', 0, 0);
         INSERT INTO messages (session_id, role, kind, content, tool_calls, status, text, words, \
         created_at, updated_at) \
         VALUES ('desktop:1', 'assistant', 'normal', '{content}', '[]', 'complete', 'r', 'r', 0, 0);"
    ))
    .unwrap();
    drop(conn);

    let store = Store::open(&path).unwrap();
    let message = &store.list_messages("desktop:1").unwrap()[0];
    assert_eq!(
        message.content,
        [
            ContentPart::text("The report"),
            ContentPart::Artifact {
                id: "art_7".into(),
                name: "q3.md".into(),
                size: 9,
            },
            ContentPart::File {
                name: "notes.txt".into(),
                path: "docs/artifact:x.txt".into(),
                size: 3,
                mime_type: None,
            },
        ]
    );
}

#[test]
fn the_chat_list_and_pages_are_read_while_a_write_holds_the_writer() {
    let TempStore {
        dir: _dir, store, ..
    } = TempStore::new();
    let store = Arc::new(store);
    store.create_session(&new_session("s1")).unwrap();
    let writer = store.conn();
    let (send, receive) = std::sync::mpsc::channel();
    let reader = store.clone();
    std::thread::spawn(move || {
        let titles: Vec<String> = reader
            .list_sessions()
            .unwrap()
            .into_iter()
            .map(|s| s.title)
            .collect();
        let page = reader.message_page("s1", None, None, 10).unwrap();
        send.send((titles, page.messages.len())).unwrap();
    });
    // With one connection the reads would wait for this guard; the bound only turns a hang
    // into a failure.
    let read = receive.recv_timeout(std::time::Duration::from_secs(10));
    drop(writer);
    assert_eq!(read.unwrap(), (vec!["Chat s1".to_string()], 0));
}
