//! Tests of `Db`: results and typed errors come back, a panic becomes an error, reads go on
//! while a write holds the writer connection.

use std::sync::{mpsc, Arc};
use std::time::Duration;

use crate::test_support::new_session;
use crate::{Db, DbError, JobsError, Store, StoreError};

fn file_db() -> (tempfile::TempDir, Db) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("hearth.db")).unwrap();
    (dir, Db::new(Arc::new(store)))
}

#[tokio::test]
async fn a_write_and_a_read_return_what_the_closures_return() {
    let (_dir, db) = file_db();
    let created = db
        .write(|store| store.create_session(&new_session("s1")))
        .await
        .unwrap();
    assert_eq!(created.id, "s1");
    let found = db
        .read(|store| store.get_session("s1"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(found.title, "Chat s1");
}

#[tokio::test]
async fn the_closures_typed_error_comes_back_unchanged() {
    let (_dir, db) = file_db();
    let error = db
        .write(|store| store.rename_session("missing", "New"))
        .await
        .unwrap_err();
    assert!(
        matches!(error, StoreError::NotFound { what: "session", ref id } if id == "missing"),
        "{error:?}"
    );
    let error = db
        .write(|store| store.delete_job("missing"))
        .await
        .unwrap_err();
    assert!(
        matches!(error, JobsError::NotFound(ref key) if key == "missing"),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_panic_in_the_closure_becomes_an_error_and_the_store_stays_usable() {
    let (_dir, db) = file_db();
    let error = db
        .write(|_store| -> Result<(), StoreError> { panic!("boom in a write") })
        .await
        .unwrap_err();
    assert!(
        matches!(error, StoreError::Db(DbError::Panicked(ref message)) if message == "boom in a write"),
        "{error:?}"
    );
    let error = db
        .read(|_store| -> Result<(), JobsError> { panic!("{} in a read", "boom") })
        .await
        .unwrap_err();
    assert!(
        matches!(error, JobsError::Store(StoreError::Db(DbError::Panicked(ref message))) if message == "boom in a read"),
        "{error:?}"
    );
    db.write(|store| store.create_session(&new_session("after")))
        .await
        .unwrap();
}

#[tokio::test]
async fn reads_go_on_while_a_write_holds_the_writer_connection() {
    let (_dir, db) = file_db();
    db.write(|store| store.create_session(&new_session("s1")))
        .await
        .unwrap();
    let (holding_tx, holding_rx) = mpsc::channel();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let long_write = tokio::spawn({
        let db = db.clone();
        async move {
            db.write(move |store| {
                let _writer = store.conn();
                holding_tx.send(()).unwrap();
                release_rx.recv().unwrap();
                Ok::<_, StoreError>(())
            })
            .await
        }
    });
    tokio::task::spawn_blocking(move || holding_rx.recv().unwrap())
        .await
        .unwrap();

    // Were reads queued behind writes, they would wait for the release below forever.
    let reads = async {
        let sessions = db.read(|store| store.list_sessions()).await.unwrap();
        let session = db.read(|store| store.get_session("s1")).await.unwrap();
        (sessions, session)
    };
    let (sessions, session) = tokio::time::timeout(Duration::from_secs(30), reads)
        .await
        .expect("the reads waited for the write");

    release_tx.send(()).unwrap();
    long_write.await.unwrap().unwrap();
    assert_eq!(sessions.len(), 1);
    assert!(session.is_some());
}
