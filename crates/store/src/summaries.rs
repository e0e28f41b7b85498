//! Session summaries for timeline recall: written when a session is compacted or goes idle,
//! searched by any of their words (CJK by character pairs), best first.

use rusqlite::{params, Connection, OptionalExtension, Row, ToSql};
use serde::{Deserialize, Serialize};

use crate::memory::{any_term_matches, AnyTerms, FtsTables, MatchQuery};
use crate::search::text::word_form;
use crate::{Result, Store, StoreError};

/// Most summaries one search returns.
pub const MAX_SUMMARY_RESULTS: usize = 50;
/// Matches a search ranks at most per pass (best bm25 first).
const SEARCH_WINDOW: usize = 1000;

const SUMMARY_TABLES: FtsTables = FtsTables {
    table: "session_summaries",
    words: "session_summaries_fts",
    trigram: "session_summaries_trigram",
};

const SUMMARY_COLUMNS: &str = "t.id, t.session_id, s.title AS session_title, t.summary, \
     t.from_message_id, t.to_message_id, t.created_at";

/// A stored summary of part of a session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionSummary {
    pub id: i64,
    pub session_id: String,
    pub session_title: String,
    pub summary: String,
    /// The first and last message it covers.
    pub from_message_id: i64,
    pub to_message_id: i64,
    /// Unix milliseconds.
    pub created_at: i64,
}

fn summary_from_row(row: &Row<'_>) -> rusqlite::Result<SessionSummary> {
    Ok(SessionSummary {
        id: row.get("id")?,
        session_id: row.get("session_id")?,
        session_title: row.get("session_title")?,
        summary: row.get("summary")?,
        from_message_id: row.get("from_message_id")?,
        to_message_id: row.get("to_message_id")?,
        created_at: row.get("created_at")?,
    })
}

fn get(conn: &Connection, id: i64) -> Result<Option<SessionSummary>> {
    let sql = format!(
        "SELECT {SUMMARY_COLUMNS} FROM session_summaries t \
         JOIN sessions s ON s.id = t.session_id WHERE t.id = ?1"
    );
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([id], summary_from_row)
        .optional()?)
}

impl Store {
    /// Stores a summary of messages `from_message_id..=to_message_id` of a session. `NotFound`
    /// if the session does not exist; `Invalid` for an empty summary or a reversed range.
    pub fn add_session_summary(
        &self,
        session_id: &str,
        summary: &str,
        from_message_id: i64,
        to_message_id: i64,
    ) -> Result<SessionSummary> {
        let summary = summary.trim();
        if summary.is_empty() {
            return Err(StoreError::Invalid {
                field: "summary",
                message: "a summary cannot be empty".to_string(),
            });
        }
        if to_message_id < from_message_id {
            return Err(StoreError::Invalid {
                field: "to_message_id",
                message: format!("{to_message_id} is before {from_message_id}"),
            });
        }
        let conn = self.conn();
        let exists = conn
            .prepare_cached("SELECT 1 FROM sessions WHERE id = ?1")?
            .exists([session_id])?;
        if !exists {
            return Err(StoreError::not_found("session", session_id));
        }
        conn.prepare_cached(
            "INSERT INTO session_summaries (session_id, summary, from_message_id, \
             to_message_id, words, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![
            session_id,
            summary,
            from_message_id,
            to_message_id,
            word_form(summary),
            self.now_ms()
        ])?;
        let id = conn.last_insert_rowid();
        get(&conn, id)?.ok_or_else(|| StoreError::not_found("session summary", id))
    }

    /// The session's newest summary (the last message it covers tells where the next starts).
    pub fn latest_session_summary(&self, session_id: &str) -> Result<Option<SessionSummary>> {
        let conn = self.conn();
        let id: Option<i64> = conn
            .prepare_cached(
                "SELECT id FROM session_summaries WHERE session_id = ?1 ORDER BY id DESC LIMIT 1",
            )?
            .query_row([session_id], |row| row.get(0))
            .optional()?;
        id.map_or(Ok(None), |id| get(&conn, id))
    }

    /// Summaries holding any word of `query`, in `session` if given, written within
    /// `since..=until` (unix ms), best first (bm25, then the newest); partial-word matches
    /// follow when whole words find fewer than `limit`. At most `limit`, capped at
    /// [`MAX_SUMMARY_RESULTS`].
    pub fn search_summaries(
        &self,
        query: &str,
        session: Option<&str>,
        since: Option<i64>,
        until: Option<i64>,
        limit: usize,
    ) -> Result<Vec<SessionSummary>> {
        let terms = AnyTerms::parse(query);
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        let mut clauses = vec!["1"];
        let mut params: Vec<(&str, &dyn ToSql)> = Vec::new();
        if let Some(session) = &session {
            clauses.push("t.session_id = :session");
            params.push((":session", session));
        }
        if let Some(since) = &since {
            clauses.push("t.created_at >= :since");
            params.push((":since", since));
        }
        if let Some(until) = &until {
            clauses.push("t.created_at <= :until");
            params.push((":until", until));
        }
        let limit = limit.min(MAX_SUMMARY_RESULTS);
        let query = MatchQuery {
            tables: &SUMMARY_TABLES,
            columns: "t.created_at",
            filter: &clauses.join(" AND "),
            params: &params,
            window: SEARCH_WINDOW,
            substrings_below: limit,
        };
        let conn = self.conn();
        let mut matches = any_term_matches(&conn, &terms, &query, |row| row.get::<_, i64>(0))?;
        matches.sort_by(|a, b| {
            a.by_relevance(b)
                .then(b.row.cmp(&a.row))
                .then(b.id.cmp(&a.id))
        });
        let mut out = Vec::with_capacity(limit);
        for m in matches.iter().take(limit) {
            out.extend(get(&conn, m.id)?);
        }
        Ok(out)
    }
}

#[cfg(test)]
#[path = "summaries_tests.rs"]
mod tests;
