//! WAL checkpoints off the commit path: the writing connection only appends to the WAL, and a
//! background thread with its own connection copies it back into the database file.
//!
//! SQLite's automatic checkpoint runs inside whichever commit crosses the threshold, so that
//! commit pays for writing back and syncing a thousand pages — the slowest turns of the agent loop
//! were exactly those. Here a commit only signals, and the thread checkpoints in `PASSIVE` mode,
//! which never blocks the writer.

use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread;

use rusqlite::Connection;

use crate::{Result, BUSY_TIMEOUT};

/// WAL size (in pages) past which a commit asks for a checkpoint; SQLite's own default.
pub(crate) const CHECKPOINT_PAGES: i32 = 1000;

/// Hands checkpoints of the database at `path` to a background thread, replacing SQLite's
/// automatic checkpoint on `conn`. The thread ends when `conn` is closed.
pub(crate) fn move_off_commit_path(conn: &mut Connection, path: &Path) -> Result<()> {
    let checkpointer = Connection::open(path)?;
    checkpointer.busy_timeout(BUSY_TIMEOUT)?;
    let (wake, woken) = sync_channel::<()>(1);
    thread::Builder::new()
        .name("hearth-wal-checkpoint".into())
        .spawn(move || checkpoint_when_woken(&checkpointer, &woken))
        .map_err(|source| crate::StoreError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    conn.wal_hook(Some(move |_: &mut rusqlite::hooks::Wal, pages| {
        if pages >= CHECKPOINT_PAGES {
            request(&wake);
        }
        Ok(())
    }))?;
    Ok(())
}

/// Wakes the checkpoint thread. A full channel means a wake-up is already pending, and a closed
/// one that the thread is gone with its store; neither needs more.
fn request(wake: &SyncSender<()>) {
    wake.try_send(()).ok();
}

fn checkpoint_when_woken(conn: &Connection, woken: &Receiver<()>) {
    while woken.recv().is_ok() {
        let outcome = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
            Ok((row.get::<_, i64>(1)?, row.get::<_, i64>(2)?))
        });
        match outcome {
            Ok((logged, copied)) => tracing::debug!(logged, copied, "WAL checkpoint"),
            Err(error) => {
                tracing::warn!(%error, "WAL checkpoint failed; retried at the next commit")
            }
        }
    }
}
