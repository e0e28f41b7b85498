//! Contradictions between memories: recording them, listing them, and resolving them (the
//! winner stays, taking the loser's key and pin; the loser is deleted).

use rusqlite::{params, Connection, OptionalExtension, Row, Transaction};
use serde::{Deserialize, Serialize};

use super::write::save;
use super::{get, Memory, MAX_MEMORY_RESULTS};
use crate::{Result, Store, StoreError};
use ts_rs::TS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ContradictionStatus {
    Open,
    Resolved,
}

impl ContradictionStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ContradictionStatus::Open => "open",
            ContradictionStatus::Resolved => "resolved",
        }
    }
}

/// Two memories that disagree, with their content when the disagreement was found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Contradiction {
    pub id: i64,
    /// The memory that was there first.
    pub memory_a: i64,
    /// The newcomer (the same id as `memory_a` when it overwrote it at once).
    pub memory_b: i64,
    pub content_a: String,
    pub content_b: String,
    pub reason: String,
    /// Whether `memory_b` is held back (pending) because `memory_a` outranks it.
    pub held_back: bool,
    pub status: ContradictionStatus,
    pub winner_id: Option<i64>,
    /// Unix milliseconds.
    pub created_at: i64,
    pub resolved_at: Option<i64>,
}

/// The outcome of resolving a contradiction.
#[derive(Debug, Clone, PartialEq)]
pub enum Resolution {
    /// Done: the winner as it is now, and the id of the loser that was deleted.
    Resolved {
        contradiction: Contradiction,
        winner: Memory,
        removed_id: Option<i64>,
    },
    AlreadyResolved(Contradiction),
    /// The winner named is neither side of the contradiction.
    NotAParty(Contradiction),
}

const CONTRADICTION_SELECT: &str = "SELECT id, memory_a, memory_b, content_a, content_b, reason, \
     held_back, status, winner_id, created_at, resolved_at FROM memory_contradictions";

fn contradiction_from_row(row: &Row<'_>) -> rusqlite::Result<Contradiction> {
    let status: String = row.get("status")?;
    Ok(Contradiction {
        id: row.get("id")?,
        memory_a: row.get("memory_a")?,
        memory_b: row.get("memory_b")?,
        content_a: row.get("content_a")?,
        content_b: row.get("content_b")?,
        reason: row.get("reason")?,
        held_back: row.get("held_back")?,
        status: if status == "open" {
            ContradictionStatus::Open
        } else {
            ContradictionStatus::Resolved
        },
        winner_id: row.get("winner_id")?,
        created_at: row.get("created_at")?,
        resolved_at: row.get("resolved_at")?,
    })
}

fn load(conn: &Connection, id: i64) -> Result<Option<Contradiction>> {
    Ok(conn
        .prepare_cached(&format!("{CONTRADICTION_SELECT} WHERE id = ?1"))?
        .query_row([id], contradiction_from_row)
        .optional()?)
}

fn loaded(conn: &Connection, id: i64) -> Result<Contradiction> {
    load(conn, id)?.ok_or_else(|| StoreError::not_found("contradiction", id))
}

/// Records an open contradiction between `old` and the newcomer `new`.
pub(super) fn record(
    tx: &Transaction<'_>,
    old: &Memory,
    new: &Memory,
    reason: &str,
    held_back: bool,
    at: i64,
) -> Result<Contradiction> {
    tx.prepare_cached(
        "INSERT INTO memory_contradictions (memory_a, memory_b, content_a, content_b, reason, \
         held_back, status, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'open', ?7)",
    )?
    .execute(params![
        old.id,
        new.id,
        old.content,
        new.content,
        reason,
        held_back,
        at
    ])?;
    loaded(tx, tx.last_insert_rowid())
}

/// Records a contradiction settled at once: `memory` (now holding the newcomer's content)
/// overwrote `previous` by precedence.
pub(super) fn record_overwrite(
    tx: &Transaction<'_>,
    memory: &Memory,
    previous: &str,
    reason: &str,
    at: i64,
) -> Result<Contradiction> {
    tx.prepare_cached(
        "INSERT INTO memory_contradictions (memory_a, memory_b, content_a, content_b, reason, \
         held_back, status, winner_id, created_at, resolved_at) \
         VALUES (?1, ?1, ?2, ?3, ?4, 0, 'resolved', ?1, ?5, ?5)",
    )?
    .execute(params![memory.id, previous, memory.content, reason, at])?;
    loaded(tx, tx.last_insert_rowid())
}

/// Marks memory `id` pending while it is held back by an open contradiction, active otherwise.
fn refresh_state(tx: &Transaction<'_>, id: i64) -> Result<()> {
    tx.prepare_cached(
        "UPDATE memories SET state = CASE WHEN EXISTS ( \
             SELECT 1 FROM memory_contradictions c \
             WHERE c.status = 'open' AND c.held_back = 1 AND c.memory_b = ?1 \
         ) THEN 'pending' ELSE 'active' END WHERE id = ?1",
    )?
    .execute([id])?;
    Ok(())
}

fn settle(tx: &Transaction<'_>, id: i64, winner: i64, at: i64) -> Result<()> {
    tx.prepare_cached(
        "UPDATE memory_contradictions SET status = 'resolved', winner_id = ?2, resolved_at = ?3 \
         WHERE id = ?1",
    )?
    .execute(params![id, winner, at])?;
    Ok(())
}

/// Deletes memory `id`; each of its open contradictions is settled for the other side.
pub(super) fn forget(tx: &Transaction<'_>, id: i64, at: i64) -> Result<()> {
    let open: Vec<(i64, i64)> = tx
        .prepare_cached(
            "SELECT id, CASE WHEN memory_a = ?1 THEN memory_b ELSE memory_a END \
             FROM memory_contradictions \
             WHERE status = 'open' AND (memory_a = ?1 OR memory_b = ?1)",
        )?
        .query_map([id], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    tx.prepare_cached("DELETE FROM memories WHERE id = ?1")?
        .execute([id])?;
    for (contradiction, other) in open {
        settle(tx, contradiction, other, at)?;
        refresh_state(tx, other)?;
    }
    Ok(())
}

impl Store {
    /// Contradictions with `status` (all when `None`), newest first, skipping `offset`, at most
    /// `limit` (capped at 50), and how many there are in all.
    pub fn list_contradictions(
        &self,
        status: Option<ContradictionStatus>,
        offset: usize,
        limit: usize,
    ) -> Result<(Vec<Contradiction>, usize)> {
        let conn = self.conn();
        let status = status.map(ContradictionStatus::as_str);
        let total: i64 = conn
            .prepare_cached(
                "SELECT COUNT(*) FROM memory_contradictions WHERE ?1 IS NULL OR status = ?1",
            )?
            .query_row([status], |row| row.get(0))?;
        let limit = i64::try_from(limit.min(MAX_MEMORY_RESULTS)).unwrap_or(0);
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let list = conn
            .prepare_cached(&format!(
                "{CONTRADICTION_SELECT} WHERE ?1 IS NULL OR status = ?1 \
                 ORDER BY id DESC LIMIT ?2 OFFSET ?3"
            ))?
            .query_map(params![status, limit, offset], contradiction_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok((list, usize::try_from(total).unwrap_or(0)))
    }

    /// Settles contradiction `id` for `winner_id` (one of its sides): the loser is deleted (its
    /// other open contradictions settled for their other side), and the winner becomes active
    /// unless another contradiction holds it back, taking the loser's key if it has none and
    /// its pin. `NotFound` for an unknown contradiction.
    pub fn resolve_contradiction(&self, id: i64, winner_id: i64) -> Result<Resolution> {
        let now = self.now_ms();
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let contradiction = loaded(&tx, id)?;
        if contradiction.status == ContradictionStatus::Resolved {
            return Ok(Resolution::AlreadyResolved(contradiction));
        }
        let loser_id = if winner_id == contradiction.memory_a {
            contradiction.memory_b
        } else if winner_id == contradiction.memory_b {
            contradiction.memory_a
        } else {
            return Ok(Resolution::NotAParty(contradiction));
        };
        let mut winner =
            get(&tx, winner_id)?.ok_or_else(|| StoreError::not_found("memory", winner_id))?;
        settle(&tx, id, winner_id, now)?;
        let loser = get(&tx, loser_id)?;
        if let Some(loser) = &loser {
            forget(&tx, loser.id, now)?;
            if winner.key.is_none() {
                winner.key.clone_from(&loser.key);
            }
            winner.pinned |= loser.pinned;
            save(&tx, &winner, false, now)?;
        }
        refresh_state(&tx, winner_id)?;
        let winner =
            get(&tx, winner_id)?.ok_or_else(|| StoreError::not_found("memory", winner_id))?;
        let contradiction = loaded(&tx, id)?;
        tx.commit()?;
        Ok(Resolution::Resolved {
            contradiction,
            winner,
            removed_id: loser.map(|l| l.id),
        })
    }
}
