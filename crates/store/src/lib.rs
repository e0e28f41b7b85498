//! SQLite storage for Hearth (`hearth.db`): sessions and messages with full-text search, memories,
//! jobs, checklists, tasks and workflows, artifacts, the knowledge index, sub-agent runs and the
//! audit log; the `Store` handle, its connection settings and schema migrations.

mod agent_runs;
mod artifacts;
mod audit;
mod channels;
mod checkpoint;
mod clock;
mod db;
mod error;
mod jobs;
mod knowledge;
mod memory;
mod messages;
mod migrations;
mod owner;
mod pages;
mod planning;
mod search;
mod sessions;
mod streaming;
mod summaries;
mod turns;

#[cfg(test)]
mod test_support;

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

pub use agent_runs::{AgentRunEnd, NewAgentRun};
pub use artifacts::{Artifact, ArtifactChunk, ArtifactState};
pub use audit::{AuditDecision, AuditEntry, AuditRecord};
pub use channels::{InboxEntry, InboxStatus, Received};
pub use clock::{Clock, ManualClock, SystemClock};
pub use db::{Db, DbError};
pub use error::StoreError;
pub use jobs::{
    authorization_hash, Authorization, AuthorizationState, Job, JobPatch, JobRun, JobsError,
    LeaseOutcome, NewJob, NotificationReservation, NotificationStatus, RunBegin, RunKind, RunStart,
    RunStatus, SchedulerBeat, MAX_ENABLED_JOBS, NOTIFICATIONS_PER_HOUR, NOTIFICATION_WINDOW_MS,
};
pub use knowledge::{
    FileStamp, KnowledgeChunk, KnowledgeCounts, KnowledgeFile, KnowledgeHit, MAX_KNOWLEDGE_RESULTS,
};
pub use memory::{
    AddAction, AddOutcome, Contradiction, ContradictionStatus, Memory, MemoryEdit, MemoryFilter,
    MemoryPage, MemorySelector, MemorySource, MemoryTarget, NewMemory, Resolution, Selected,
    DEFAULT_CATEGORY, DEFAULT_IMPORTANCE, MAX_CATEGORY_CHARS, MAX_KEY_CHARS, MAX_MEMORY_CHARS,
    MAX_MEMORY_RESULTS, MAX_TAGS, MAX_TAG_CHARS,
};
pub use messages::NewMessage;
pub use pages::MAX_PAGE_MESSAGES;
pub use planning::{
    NewPlanTask, NewWorkflow, PlanTask, TaskStatus, Workflow, WorkflowStatus, WorkflowStep,
    MAX_PLAN_ROWS,
};
pub use search::text::searchable_text;
pub use sessions::NewSession;
pub use streaming::MessageEnd;
pub use summaries::{SessionSummary, MAX_SUMMARY_RESULTS};

/// Result of every store operation.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// How long a statement waits for another connection's lock before failing.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Page cache per connection, in KiB (SQLite's default is 2 MiB). Searches touch index pages
/// all over a large file; with the default each one becomes a read from the OS.
const CACHE_KIB: i64 = 32 * 1024;

/// The Hearth database. Two connections, each behind a mutex; every method is synchronous, so
/// async code reaches it through [`Db`], which runs the calls on the blocking pool. Writes, and the search-index thread (`search::backlog`), use the first; the reads
/// the window waits for (the chat list, a chat's pages) use a read-only second one, so indexing a
/// backlog or a long write never holds them up (WAL lets one writer and readers go on together).
/// The timestamps it writes come from its [`Clock`] (the system clock unless
/// [`Store::with_clock`] chose another).
pub struct Store {
    conn: Arc<Mutex<Connection>>,
    /// A read-only connection to the same file (the first one again for an in-memory database).
    read: Arc<Mutex<Connection>>,
    clock: Arc<dyn Clock>,
}

impl Store {
    /// Opens (creating if needed) the database at `path` and its parent directory, then applies
    /// pending migrations. The file uses WAL journaling with foreign keys enforced; checkpoints
    /// (`checkpoint`) and search indexing (`search::backlog`) run on background threads.
    pub fn open(path: &Path) -> Result<Store> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|source| StoreError::Io {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        Store::init(Connection::open(path)?, Some(path))
    }

    /// A private database that lives as long as the returned value.
    pub fn open_in_memory() -> Result<Store> {
        Store::init(Connection::open_in_memory()?, None)
    }

    /// Connection settings and migrations; for a database file (`path`), background checkpoints
    /// and indexing (an in-memory store indexes when it searches).
    fn init(mut conn: Connection, path: Option<&Path>) -> Result<Store> {
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // Answers the mode in effect ("memory" for in-memory databases), which needs no check.
        conn.query_row("PRAGMA journal_mode = WAL", [], |row| {
            row.get::<_, String>(0)
        })?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", true)?;
        conn.pragma_update(None, "cache_size", -CACHE_KIB)?;
        migrations::apply(&mut conn, migrations::MIGRATIONS)?;
        if let Some(path) = path {
            checkpoint::move_off_commit_path(&mut conn, path)?;
        }
        let conn = Arc::new(Mutex::new(conn));
        let read = match path {
            Some(path) => {
                search::backlog::start_indexer(&conn)?;
                Arc::new(Mutex::new(read_connection(path)?))
            }
            None => conn.clone(),
        };
        Ok(Store {
            conn,
            read,
            clock: Arc::new(SystemClock),
        })
    }

    /// This store with its timestamps read from `clock`: tests move a [`ManualClock`] where
    /// they need writes at distinct or chosen times.
    pub fn with_clock(self, clock: Arc<dyn Clock>) -> Store {
        Store { clock, ..self }
    }

    /// The time to stamp a write with, in unix milliseconds.
    fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// The connection that writes.
    fn conn(&self) -> MutexGuard<'_, Connection> {
        lock(&self.conn)
    }

    /// The connection for reads that must not wait for writes.
    fn reader(&self) -> MutexGuard<'_, Connection> {
        lock(&self.read)
    }

    /// Runs `PRAGMA integrity_check`: `"ok"`, or the problems SQLite found, one per line.
    pub fn integrity_check(&self) -> Result<String> {
        let conn = self.conn();
        let mut stmt = conn.prepare("PRAGMA integrity_check")?;
        let lines = stmt
            .query_map([], |row| row.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(lines.join("\n"))
    }
}

/// A read-only connection to the database file at `path` (already migrated by the writer).
fn read_connection(path: &Path) -> Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "cache_size", -CACHE_KIB)?;
    Ok(conn)
}

/// Locks the store's connection. A panic while it was held cannot leave a transaction open
/// (dropping a `Transaction` rolls it back), so a poisoned lock is safe to reuse.
pub(crate) fn lock(conn: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    conn.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
