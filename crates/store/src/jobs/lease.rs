//! The scheduler lease: one row naming the runner that fires jobs and its last heartbeat. The
//! desktop app and `hearth-cli daemon` may both run a scheduler over one database; only the
//! lease holder fires jobs, and a fresh heartbeat tells the job tools that something will.

use rusqlite::{params, OptionalExtension, TransactionBehavior};
use serde::Serialize;

use super::JobsError;
use crate::Store;

/// The lease row: who holds it, since when, and its last heartbeat (unix ms).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SchedulerBeat {
    pub owner: String,
    pub pid: i64,
    pub started_at: i64,
    pub beat_at: i64,
}

/// What a heartbeat found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeaseOutcome {
    /// The caller holds the lease; `acquired` when it just took it (from nobody, from itself
    /// after a restart, or from a holder whose heartbeat went stale).
    Held { acquired: bool },
    /// Another live runner holds it.
    Standby { holder: SchedulerBeat },
}

impl Store {
    /// Beats the heart of runner `owner` (process `pid`) at `now`: renews its lease, or takes
    /// the lease when it is free or its holder's last beat is older than `stale_after_ms`.
    pub fn scheduler_heartbeat(
        &self,
        owner: &str,
        pid: u32,
        now: i64,
        stale_after_ms: i64,
    ) -> Result<LeaseOutcome, JobsError> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let current = read(&tx)?;
        let outcome = match current {
            Some(holder) if holder.owner == owner => {
                tx.prepare_cached("UPDATE scheduler_lease SET beat_at = ?1 WHERE id = 1")?
                    .execute([now])?;
                LeaseOutcome::Held { acquired: false }
            }
            Some(holder) if now - holder.beat_at < stale_after_ms => {
                LeaseOutcome::Standby { holder }
            }
            _ => {
                tx.prepare_cached(
                    "INSERT OR REPLACE INTO scheduler_lease (id, owner, pid, started_at, \
                     beat_at) VALUES (1, ?1, ?2, ?3, ?3)",
                )?
                .execute(params![owner, pid, now])?;
                LeaseOutcome::Held { acquired: true }
            }
        };
        tx.commit()?;
        Ok(outcome)
    }

    /// The lease row, if any runner ever held it.
    pub fn scheduler_status(&self) -> Result<Option<SchedulerBeat>, JobsError> {
        read(&self.conn())
    }

    /// Gives the lease up (a runner stopping cleanly), so another can take it at once.
    pub fn release_scheduler(&self, owner: &str) -> Result<(), JobsError> {
        self.conn()
            .prepare_cached("DELETE FROM scheduler_lease WHERE owner = ?1")?
            .execute([owner])?;
        Ok(())
    }
}

fn read(conn: &rusqlite::Connection) -> Result<Option<SchedulerBeat>, JobsError> {
    Ok(conn
        .prepare_cached("SELECT owner, pid, started_at, beat_at FROM scheduler_lease WHERE id = 1")?
        .query_row([], |row| {
            Ok(SchedulerBeat {
                owner: row.get(0)?,
                pid: row.get(1)?,
                started_at: row.get(2)?,
                beat_at: row.get(3)?,
            })
        })
        .optional()?)
}
