//! Numbered schema migrations, embedded in the binary and tracked with `PRAGMA user_version`.

use rusqlite::{Connection, TransactionBehavior};

use crate::{Result, StoreError};

/// Migration `n` (1-based) brings the schema from version `n - 1` to `n`. Append only.
pub(crate) const MIGRATIONS: &[&str] = &[
    include_str!("../migrations/0001_init.sql"),
    include_str!("../migrations/0002_memory.sql"),
    include_str!("../migrations/0003_jobs.sql"),
    include_str!("../migrations/0004_message_owner.sql"),
    include_str!("../migrations/0005_message_usage.sql"),
    include_str!("../migrations/0006_index_settled_messages.sql"),
    include_str!("../migrations/0007_index_backlog.sql"),
    include_str!("../migrations/0008_running_turns.sql"),
    include_str!("../migrations/0009_agent_runs.sql"),
    include_str!("../migrations/0010_planning.sql"),
    include_str!("../migrations/0011_channels.sql"),
    include_str!("../migrations/0012_error_codes.sql"),
    include_str!("../migrations/0013_job_skill.sql"),
    include_str!("../migrations/0014_artifacts.sql"),
    include_str!("../migrations/0015_knowledge.sql"),
    include_str!("../migrations/0018_audit_reason_codes.sql"),
    include_str!("../migrations/0019_one_delivery_error.sql"),
    include_str!("../migrations/0020_artifact_parts.sql"),
];

/// Applies the migrations past the database's `user_version`, each in its own immediate
/// transaction that also re-reads the version, so two processes opening one file at once apply
/// each migration exactly once.
pub(crate) fn apply(conn: &mut Connection, migrations: &[&str]) -> Result<()> {
    let supported = i64::try_from(migrations.len()).unwrap_or(i64::MAX);
    loop {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let current: i64 = tx.pragma_query_value(None, "user_version", |row| row.get(0))?;
        if current > supported {
            return Err(StoreError::SchemaTooNew {
                found: current,
                supported,
            });
        }
        let Some(sql) = usize::try_from(current)
            .ok()
            .and_then(|index| migrations.get(index))
        else {
            return Ok(());
        };
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", current + 1)?;
        tx.commit()?;
        tracing::info!(version = current + 1, "applied store migration");
    }
}
