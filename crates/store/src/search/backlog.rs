//! The search indexes' backlog (migration 7): settled messages waiting in `messages_unindexed`,
//! indexed in batches by a background thread once writes pause, and by every search before it
//! runs.

use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex, Weak};
use std::thread;
use std::time::{Duration, Instant};

use rusqlite::hooks::Action;
use rusqlite::{Connection, TransactionBehavior};

use crate::{lock, Result, StoreError};

/// Writes must pause this long before the thread indexes what they queued.
const QUIET: Duration = Duration::from_millis(250);

/// Under writes that never pause, the thread still indexes at least this often.
const MAX_DELAY: Duration = Duration::from_secs(2);

/// Messages indexed per transaction by the thread, which holds the connection meanwhile.
const BATCH: usize = 100;

/// Starts the indexing thread for the store whose connection is `conn`, and wakes it whenever a
/// message joins the backlog on that connection (and once now, for a backlog left by an earlier
/// run). The thread ends once the store is dropped.
pub(crate) fn start_indexer(conn: &Arc<Mutex<Connection>>) -> Result<()> {
    let (wake, woken) = sync_channel::<()>(1);
    let shared = Arc::downgrade(conn);
    thread::Builder::new()
        .name("hearth-search-index".into())
        .spawn(move || index_when_quiet(&shared, &woken))
        .map_err(|source| StoreError::Io {
            path: "the search-index thread".into(),
            source,
        })?;
    nudge(&wake);
    lock(conn).update_hook(Some(move |action: Action, _: &str, table: &str, _: i64| {
        if action == Action::SQLITE_INSERT && table == "messages_unindexed" {
            nudge(&wake);
        }
    }))?;
    Ok(())
}

/// Indexes the whole backlog in one transaction; a no-op (one read) when it is empty.
pub(crate) fn index_backlog(conn: &mut Connection) -> Result<()> {
    index_batch(conn, usize::MAX).map(|_| ())
}

/// Adds the queued messages up to id `?1` to both indexes. `CROSS JOIN` keeps the queue as the
/// outer loop: otherwise SQLite walks every message older than the batch's last id.
pub(super) const INDEX_QUEUED: [&str; 2] = [
    "INSERT INTO messages_fts (rowid, words) SELECT m.id, m.words \
     FROM messages_unindexed u CROSS JOIN messages m ON m.id = u.id \
     WHERE u.id <= ?1 AND m.status != 'streaming'",
    "INSERT INTO messages_trigram (rowid, text) SELECT m.id, m.text \
     FROM messages_unindexed u CROSS JOIN messages m ON m.id = u.id \
     WHERE u.id <= ?1 AND m.status != 'streaming'",
];

/// Indexes up to `limit` of the oldest queued messages in one transaction; how many it took.
/// The transaction takes the write lock before reading the queue, so two stores on one file
/// (the app and `hearth-cli`) never index a message twice.
fn index_batch(conn: &mut Connection, limit: usize) -> Result<usize> {
    let queued: bool = conn
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM messages_unindexed)")?
        .query_row([], |row| row.get(0))?;
    if !queued {
        return Ok(0);
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let last: Option<i64> = tx
        .prepare_cached(
            "SELECT max(id) FROM (SELECT id FROM messages_unindexed ORDER BY id LIMIT ?1)",
        )?
        .query_row([i64::try_from(limit).unwrap_or(i64::MAX)], |row| row.get(0))?;
    let Some(last) = last else {
        return Ok(0);
    };
    for sql in INDEX_QUEUED {
        tx.prepare_cached(sql)?.execute([last])?;
    }
    let taken = tx
        .prepare_cached("DELETE FROM messages_unindexed WHERE id <= ?1")?
        .execute([last])?;
    tx.commit()?;
    Ok(taken)
}

/// A full channel means a wake-up is already pending, a closed one that the thread has ended.
fn nudge(wake: &SyncSender<()>) {
    wake.try_send(()).ok();
}

fn index_when_quiet(conn: &Weak<Mutex<Connection>>, woken: &Receiver<()>) {
    while woken.recv().is_ok() {
        let first = Instant::now();
        while first.elapsed() < MAX_DELAY {
            match woken.recv_timeout(QUIET) {
                Ok(()) => continue,
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
            }
        }
        let Some(conn) = conn.upgrade() else {
            return;
        };
        loop {
            // The lock is released between batches, so a turn waits for one batch at most.
            match index_batch(&mut lock(&conn), BATCH) {
                Ok(BATCH) => continue,
                Ok(_) => break,
                Err(error) => {
                    tracing::warn!(%error, "indexing messages for search failed; retried later");
                    break;
                }
            }
        }
    }
}
