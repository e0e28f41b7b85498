//! Turn claims across processes: one row per session whose turn is running, naming the process
//! that runs it. A claim by another live process refuses a second turn; one left by a process
//! that has ended is taken over.

use rusqlite::{params, OptionalExtension, TransactionBehavior};

use crate::{owner, Result, Store};

impl Store {
    /// Claims `session_id` for a turn of this process. `Ok(false)` when another running process
    /// holds it. A claim this process already holds is renewed: callers keep their own
    /// in-process registry, so such a row can only be one a failed release left behind.
    pub fn claim_turn(&self, session_id: &str) -> Result<bool> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let holder: Option<String> = tx
            .prepare_cached("SELECT owner FROM running_turns WHERE session_id = ?1")?
            .query_row([session_id], |row| row.get(0))
            .optional()?;
        if holder.is_some_and(|holder| owner::is_other_live_process(&holder)) {
            return Ok(false);
        }
        tx.prepare_cached(
            "INSERT OR REPLACE INTO running_turns (session_id, owner, started_at) \
             VALUES (?1, ?2, ?3)",
        )?
        .execute(params![session_id, owner::current(), self.now_ms()])?;
        tx.commit()?;
        Ok(true)
    }

    /// Releases this process's claim on `session_id` (another process's claim is left alone).
    pub fn release_turn(&self, session_id: &str) -> Result<()> {
        self.conn()
            .prepare_cached("DELETE FROM running_turns WHERE session_id = ?1 AND owner = ?2")?
            .execute(params![session_id, owner::current()])?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use crate::test_support::TempStore;

    #[test]
    fn a_claim_is_renewed_by_its_process_and_gone_once_released() {
        let temp = TempStore::new();
        let store = &temp.store;
        assert!(store.claim_turn("desktop:a").unwrap());
        assert!(store.claim_turn("desktop:a").unwrap());
        store.release_turn("desktop:a").unwrap();
        let rows: i64 = store
            .conn()
            .query_row("SELECT COUNT(*) FROM running_turns", [], |r| r.get(0))
            .unwrap();
        assert_eq!(rows, 0);
    }

    #[test]
    fn a_live_process_keeps_its_claim_and_a_dead_ones_is_taken_over() {
        let temp = TempStore::new();
        let store = &temp.store;
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let live = crate::owner::identity(child.id()).unwrap();
        let insert = |owner: &str| {
            store
                .conn()
                .execute(
                    "INSERT OR REPLACE INTO running_turns VALUES ('desktop:b', ?1, 0)",
                    [owner],
                )
                .unwrap();
        };
        insert(&live);
        assert!(!store.claim_turn("desktop:b").unwrap());
        store.release_turn("desktop:b").unwrap();
        assert!(
            !store.claim_turn("desktop:b").unwrap(),
            "release is per owner"
        );
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(store.claim_turn("desktop:b").unwrap());
    }
}
