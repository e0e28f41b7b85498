//! The knowledge base's index: the files of the knowledge folders (size, modification time and
//! content hash, to reindex only what changed) and their chunks, searched by BM25 over a word
//! index that splits CJK text into character pairs and a trigram index for partial words.

use rusqlite::{params, Connection, OptionalExtension, Row};

use crate::memory::{any_term_matches, AnyTerms, FtsTables, MatchQuery};
use crate::search::text::word_form;
use crate::{Result, Store, StoreError};

const KNOWLEDGE_TABLES: FtsTables = FtsTables {
    table: "knowledge_chunks",
    words: "knowledge_chunks_fts",
    trigram: "knowledge_chunks_trigram",
};

/// The most results one search returns.
pub const MAX_KNOWLEDGE_RESULTS: usize = 50;

/// An indexed (or unreadable) file of a knowledge folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnowledgeFile {
    pub id: i64,
    pub folder: String,
    pub path: String,
    pub size: u64,
    /// Unix milliseconds.
    pub mtime: i64,
    pub sha256: String,
    pub chunks: u64,
    /// Why it could not be read.
    pub error: Option<String>,
    pub indexed_at: i64,
}

/// What is known of a file before it is indexed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileStamp {
    pub folder: String,
    pub path: String,
    pub size: u64,
    pub mtime: i64,
    pub sha256: String,
}

/// A piece of a file: the page, slide or sheet range, or the lines, it covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnowledgeChunk {
    /// `page`, `slide`, `sheet` or `line`.
    pub unit: String,
    pub first: u64,
    pub last: u64,
    /// A sheet's name.
    pub label: Option<String>,
    pub text: String,
}

/// A search result: the chunk, its file and its BM25 relevance (higher is better).
#[derive(Debug, Clone, PartialEq)]
pub struct KnowledgeHit {
    pub path: String,
    pub chunk: KnowledgeChunk,
    pub relevance: f64,
}

/// How much is indexed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KnowledgeCounts {
    pub files: u64,
    pub chunks: u64,
    pub errors: u64,
    /// When a file was last indexed, unix milliseconds.
    pub last_indexed: Option<i64>,
}

const FILE_COLUMNS: &str = "id, folder, path, size, mtime, sha256, chunks, error, indexed_at";

fn file_from_row(row: &Row<'_>) -> rusqlite::Result<KnowledgeFile> {
    Ok(KnowledgeFile {
        id: row.get("id")?,
        folder: row.get("folder")?,
        path: row.get("path")?,
        size: row.get::<_, i64>("size")?.unsigned_abs(),
        mtime: row.get("mtime")?,
        sha256: row.get("sha256")?,
        chunks: row.get::<_, i64>("chunks")?.unsigned_abs(),
        error: row.get("error")?,
        indexed_at: row.get("indexed_at")?,
    })
}

fn signed(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

fn unsigned(value: i64) -> u64 {
    value.unsigned_abs()
}

fn delete_file(conn: &Connection, path: &str) -> Result<bool> {
    let id: Option<i64> = conn
        .prepare_cached("SELECT id FROM knowledge_files WHERE path = ?1")?
        .query_row([path], |row| row.get(0))
        .optional()?;
    let Some(id) = id else { return Ok(false) };
    conn.prepare_cached("DELETE FROM knowledge_chunks WHERE file_id = ?1")?
        .execute([id])?;
    conn.prepare_cached("DELETE FROM knowledge_files WHERE id = ?1")?
        .execute([id])?;
    Ok(true)
}

impl Store {
    /// The indexed files, of `folder` only when given, by path.
    pub fn knowledge_files(&self, folder: Option<&str>) -> Result<Vec<KnowledgeFile>> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {FILE_COLUMNS} FROM knowledge_files WHERE ?1 IS NULL OR folder = ?1 \
             ORDER BY path"
        ))?;
        let rows = stmt.query_map([folder], file_from_row)?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Replaces whatever was indexed for `stamp.path` with `chunks` (or, with `error`, with
    /// the reason it could not be read), in one transaction.
    pub fn index_knowledge_file(
        &self,
        stamp: &FileStamp,
        chunks: &[KnowledgeChunk],
        error: Option<&str>,
    ) -> Result<KnowledgeFile> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        delete_file(&tx, &stamp.path)?;
        tx.prepare_cached(
            "INSERT INTO knowledge_files (folder, path, size, mtime, sha256, chunks, error, \
             indexed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?
        .execute(params![
            stamp.folder,
            stamp.path,
            signed(stamp.size),
            stamp.mtime,
            stamp.sha256,
            signed(chunks.len() as u64),
            error,
            self.now_ms()
        ])?;
        let file_id = tx.last_insert_rowid();
        {
            let mut insert = tx.prepare_cached(
                "INSERT INTO knowledge_chunks (file_id, unit, first, last, label, text, words) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            for chunk in chunks {
                insert.execute(params![
                    file_id,
                    chunk.unit,
                    signed(chunk.first),
                    signed(chunk.last),
                    chunk.label,
                    chunk.text,
                    word_form(&chunk.text)
                ])?;
            }
        }
        let file = tx
            .prepare_cached(&format!(
                "SELECT {FILE_COLUMNS} FROM knowledge_files WHERE id = ?1"
            ))?
            .query_row([file_id], file_from_row)
            .optional()?
            .ok_or_else(|| StoreError::not_found("knowledge file", file_id))?;
        tx.commit()?;
        Ok(file)
    }

    /// Records a new size and modification time for a file whose content did not change.
    pub fn restamp_knowledge_file(&self, path: &str, size: u64, mtime: i64) -> Result<()> {
        self.conn()
            .prepare_cached("UPDATE knowledge_files SET size = ?1, mtime = ?2 WHERE path = ?3")?
            .execute(params![signed(size), mtime, path])?;
        Ok(())
    }

    /// Forgets `path` and its chunks; whether it was indexed.
    pub fn remove_knowledge_file(&self, path: &str) -> Result<bool> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let removed = delete_file(&tx, path)?;
        tx.commit()?;
        Ok(removed)
    }

    /// Files, chunks and unreadable files indexed, and when the last was.
    pub fn knowledge_counts(&self) -> Result<KnowledgeCounts> {
        let conn = self.conn();
        let counts = conn
            .prepare_cached(
                "SELECT COUNT(*), COALESCE(SUM(chunks), 0), \
                 COALESCE(SUM(error IS NOT NULL), 0), MAX(indexed_at) FROM knowledge_files",
            )?
            .query_row([], |row| {
                Ok(KnowledgeCounts {
                    files: unsigned(row.get(0)?),
                    chunks: unsigned(row.get(1)?),
                    errors: unsigned(row.get(2)?),
                    last_indexed: row.get(3)?,
                })
            })?;
        Ok(counts)
    }

    /// Chunks holding any word of `query` (CJK text by character pairs, so one- and
    /// two-character queries find their chunks), best BM25 first; partial-word matches follow
    /// when whole words find fewer than `limit`. At most `limit`, capped at
    /// [`MAX_KNOWLEDGE_RESULTS`].
    pub fn search_knowledge(&self, query: &str, limit: usize) -> Result<Vec<KnowledgeHit>> {
        let terms = AnyTerms::parse(query);
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        let limit = limit.min(MAX_KNOWLEDGE_RESULTS);
        // Only the index is read while ranking (no join to the long chunk rows), and each pass
        // keeps `limit` rows: a later pass adds rows only while fewer than `limit` are found,
        // and at most that many of its `limit` can be ones already found.
        let query = MatchQuery {
            tables: &KNOWLEDGE_TABLES,
            columns: "",
            filter: "",
            params: &[],
            window: limit,
            substrings_below: limit,
        };
        let conn = self.conn();
        let mut matches = any_term_matches(&conn, &terms, &query, |_| Ok(()))?;
        matches.sort_by(|a, b| a.by_relevance(b).then(a.id.cmp(&b.id)));
        let mut stmt = conn.prepare_cached(
            "SELECT f.path, c.unit, c.first, c.last, c.label, c.text FROM knowledge_chunks c \
             JOIN knowledge_files f ON f.id = c.file_id WHERE c.id = ?1",
        )?;
        let mut out = Vec::with_capacity(limit);
        for m in matches.iter().take(limit) {
            let hit = stmt
                .query_row([m.id], |row| {
                    Ok(KnowledgeHit {
                        path: row.get(0)?,
                        chunk: KnowledgeChunk {
                            unit: row.get(1)?,
                            first: unsigned(row.get(2)?),
                            last: unsigned(row.get(3)?),
                            label: row.get(4)?,
                            text: row.get(5)?,
                        },
                        relevance: m.relevance,
                    })
                })
                .optional()?;
            out.extend(hit);
        }
        Ok(out)
    }
}

#[cfg(test)]
#[path = "knowledge_tests.rs"]
mod tests;
