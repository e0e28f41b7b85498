//! The artifact ledger: each artifact's session, file name, state and the chunks appended to it
//! (where each starts and a hash of its content). The bytes live in files the tools write.

use rusqlite::{params, Connection, OptionalExtension, Row};

use crate::{Result, Store, StoreError};

/// Whether chunks may still be appended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArtifactState {
    Open,
    Final,
}

impl ArtifactState {
    pub fn as_str(self) -> &'static str {
        match self {
            ArtifactState::Open => "open",
            ArtifactState::Final => "final",
        }
    }
}

/// One artifact's ledger row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    pub id: String,
    pub session_id: String,
    pub filename: String,
    pub title: String,
    pub state: ArtifactState,
    /// Bytes written so far: where the next chunk starts.
    pub bytes: u64,
    /// Chunks appended: the next chunk's sequence.
    pub chunks: u64,
    pub created_at: i64,
    pub finalized_at: Option<i64>,
}

/// One appended chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArtifactChunk {
    pub sequence: u64,
    /// Its byte offset in the artifact.
    pub start: u64,
    pub bytes: u64,
    /// SHA-256 of its content, hex.
    pub sha256: String,
}

const COLUMNS: &str =
    "id, session_id, filename, title, state, bytes, chunks, created_at, finalized_at";

fn artifact_from_row(row: &Row<'_>) -> rusqlite::Result<Artifact> {
    let state: String = row.get("state")?;
    Ok(Artifact {
        id: row.get("id")?,
        session_id: row.get("session_id")?,
        filename: row.get("filename")?,
        title: row.get("title")?,
        state: if state == "final" {
            ArtifactState::Final
        } else {
            ArtifactState::Open
        },
        bytes: row.get::<_, i64>("bytes")?.unsigned_abs(),
        chunks: row.get::<_, i64>("chunks")?.unsigned_abs(),
        created_at: row.get("created_at")?,
        finalized_at: row.get("finalized_at")?,
    })
}

fn get(conn: &Connection, id: &str) -> Result<Option<Artifact>> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM artifacts WHERE id = ?1"))?
        .query_row([id], artifact_from_row)
        .optional()?)
}

fn signed(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

impl Store {
    /// Records a new, empty, open artifact.
    pub fn create_artifact(
        &self,
        id: &str,
        session_id: &str,
        filename: &str,
        title: &str,
    ) -> Result<Artifact> {
        let conn = self.conn();
        conn.prepare_cached(
            "INSERT INTO artifacts (id, session_id, filename, title, state, bytes, chunks, \
             created_at) VALUES (?1, ?2, ?3, ?4, 'open', 0, 0, ?5)",
        )?
        .execute(params![id, session_id, filename, title, self.now_ms()])?;
        get(&conn, id)?.ok_or_else(|| StoreError::not_found("artifact", id))
    }

    pub fn get_artifact(&self, id: &str) -> Result<Option<Artifact>> {
        get(&self.conn(), id)
    }

    /// The chunk appended at `sequence`, if any.
    pub fn artifact_chunk(&self, id: &str, sequence: u64) -> Result<Option<ArtifactChunk>> {
        Ok(self
            .conn()
            .prepare_cached(
                "SELECT start, bytes, sha256 FROM artifact_chunks \
                 WHERE artifact_id = ?1 AND sequence = ?2",
            )?
            .query_row(params![id, signed(sequence)], |row| {
                Ok(ArtifactChunk {
                    sequence,
                    start: row.get::<_, i64>(0)?.unsigned_abs(),
                    bytes: row.get::<_, i64>(1)?.unsigned_abs(),
                    sha256: row.get(2)?,
                })
            })
            .optional()?)
    }

    /// Records `chunk` as the next one of the open artifact `id`, only if it still starts where
    /// the artifact ends and has the next sequence (another writer may have appended since it
    /// was checked); returns the artifact after it.
    pub fn record_artifact_chunk(&self, id: &str, chunk: &ArtifactChunk) -> Result<Artifact> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let moved = tx
            .prepare_cached(
                "UPDATE artifacts SET bytes = bytes + ?1, chunks = chunks + 1 \
                 WHERE id = ?2 AND state = 'open' AND chunks = ?3 AND bytes = ?4",
            )?
            .execute(params![
                signed(chunk.bytes),
                id,
                signed(chunk.sequence),
                signed(chunk.start)
            ])?;
        if moved == 0 {
            return Err(StoreError::Invalid {
                field: "sequence",
                message: format!(
                    "artifact {id} changed while chunk {} was written; read its state and retry",
                    chunk.sequence
                ),
            });
        }
        tx.prepare_cached(
            "INSERT INTO artifact_chunks (artifact_id, sequence, start, bytes, sha256) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![
            id,
            signed(chunk.sequence),
            signed(chunk.start),
            signed(chunk.bytes),
            chunk.sha256
        ])?;
        let artifact = get(&tx, id)?.ok_or_else(|| StoreError::not_found("artifact", id))?;
        tx.commit()?;
        Ok(artifact)
    }

    /// Marks the open artifact `id` final; `None` when it was already final or is gone.
    pub fn finalize_artifact(&self, id: &str) -> Result<Option<Artifact>> {
        let conn = self.conn();
        let changed = conn
            .prepare_cached(
                "UPDATE artifacts SET state = 'final', finalized_at = ?1 \
                 WHERE id = ?2 AND state = 'open'",
            )?
            .execute(params![self.now_ms(), id])?;
        if changed == 0 {
            return Ok(None);
        }
        get(&conn, id)
    }

    /// Artifacts of `session_id` (every session's when `None`), newest first.
    pub fn list_artifacts(&self, session_id: Option<&str>) -> Result<Vec<Artifact>> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM artifacts WHERE ?1 IS NULL OR session_id = ?1 \
             ORDER BY created_at DESC, id"
        ))?;
        let rows = stmt.query_map([session_id], artifact_from_row)?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }
}

#[cfg(test)]
#[path = "artifacts_tests.rs"]
mod tests;
