//! Full-text search over messages. A word pass over the unicode61 index (whole words; CJK text
//! as exact character phrases, so `天气` is found inside `今天天气很好`) comes first; when it finds
//! fewer hits than asked for and every term has three characters or more, a substring pass over
//! the trigram index adds partial-word matches (`port` in `reports`). Messages still waiting in
//! the indexes' backlog are indexed first, so a search sees every settled message. Last, a short
//! CJK term matches with its characters apart (`喝茶` finds `我喜欢喝绿茶`), ranked after the
//! exact matches.

pub(crate) mod backlog;
pub(crate) mod query;
mod snippet;
pub(crate) mod text;

use hearth_protocol::{Role, SearchHit};
use rusqlite::{params, Connection, OptionalExtension};

use crate::messages::enum_column;
use crate::{Result, Store, StoreError};
use query::Query;
use snippet::{Highlighter, MatchMode};

/// Most hits one search returns.
const MAX_LIMIT: usize = 200;

/// The word pass ranks (bm25) only the most recent matches, this many: scoring every message
/// that holds a very common word costs ~100 ms at 100,000 messages, and recent matches are the
/// ones a person looks for.
const RANK_WINDOW: i64 = 1000;

#[derive(Clone, Copy)]
enum Index {
    Words,
    Trigram,
}

impl Index {
    fn table(self) -> &'static str {
        match self {
            Index::Words => "messages_fts",
            Index::Trigram => "messages_trigram",
        }
    }
}

/// Optional restrictions on which messages match.
struct Filter<'a> {
    session: Option<&'a str>,
    role: Option<Role>,
}

impl Store {
    /// Messages containing every term of `query` (split on whitespace), best first: word
    /// matches by bm25 then recency, then substring-only matches newest first. Each hit has a snippet
    /// with matches in `[` `]`. Query text is never interpreted as FTS syntax; an empty query,
    /// or one with nothing searchable, finds nothing. `limit` is capped at 200.
    pub fn search_messages(
        &self,
        query: &str,
        limit: usize,
        session: Option<&str>,
        role: Option<Role>,
    ) -> Result<Vec<SearchHit>> {
        let limit = limit.min(MAX_LIMIT);
        let query = Query::parse(query);
        if limit == 0 || query.is_empty() {
            return Ok(Vec::new());
        }
        let filter = Filter { session, role };
        let mut conn = self.conn();
        backlog::index_backlog(&mut conn)?;
        let mut hits = Vec::new();
        if let Some(expr) = query.word_match() {
            let marks = Highlighter::new(MatchMode::Words, query.terms());
            for id in ranked_ids(&conn, Index::Words, &expr, &filter, limit)? {
                hits.push(hit(&conn, id, &marks)?);
            }
        }
        if hits.len() < limit {
            if let Some(expr) = query.substring_match() {
                let marks = Highlighter::new(MatchMode::Substrings, query.terms());
                let pass = Pass {
                    index: Index::Trigram,
                    expr: &expr,
                    marks: &marks,
                };
                more_hits(&conn, &pass, &filter, limit, &mut hits)?;
            }
        }
        if hits.len() < limit {
            if let Some(expr) = query.scattered_match() {
                let terms = query.scattered_terms();
                let marks = Highlighter::new(MatchMode::Words, terms.iter().map(String::as_str));
                let pass = Pass {
                    index: Index::Words,
                    expr: &expr,
                    marks: &marks,
                };
                more_hits(&conn, &pass, &filter, limit, &mut hits)?;
            }
        }
        Ok(hits)
    }
}

/// A later search pass: an index, what to match in it and how to mark the snippets.
struct Pass<'a> {
    index: Index,
    expr: &'a str,
    marks: &'a Highlighter,
}

/// Adds the hits of `pass` that `hits` does not hold yet, until there are `limit`.
fn more_hits(
    conn: &Connection,
    pass: &Pass<'_>,
    filter: &Filter<'_>,
    limit: usize,
    hits: &mut Vec<SearchHit>,
) -> Result<()> {
    let wanted = limit + hits.len();
    for id in ranked_ids(conn, pass.index, pass.expr, filter, wanted)? {
        if hits.len() == limit {
            break;
        }
        if !hits.iter().any(|h| h.message_id == id) {
            hits.push(hit(conn, id, pass.marks)?);
        }
    }
    Ok(())
}

/// Ids of up to `limit` messages matching `expr` in `index`, best first: for words by bm25
/// among the newest [`RANK_WINDOW`] matches, then newest first; for substrings newest first
/// (bm25 must first count every match of each phrase, ~10 ms for a common 9-trigram phrase).
/// Without a filter the index alone answers.
fn ranked_ids(
    conn: &Connection,
    index: Index,
    expr: &str,
    filter: &Filter<'_>,
    limit: usize,
) -> Result<Vec<i64>> {
    let table = index.table();
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let (score, window) = match index {
        Index::Words => (format!("bm25({table})"), RANK_WINDOW),
        Index::Trigram => ("0".to_string(), limit),
    };
    let role = filter.role.map(Role::as_str);
    let (source, values) = if filter.session.is_none() && role.is_none() {
        let source = format!(
            "SELECT rowid AS id, {score} AS score FROM {table} \
             WHERE {table} MATCH ?1 ORDER BY rowid DESC LIMIT ?2"
        );
        (source, params![expr, window, limit].to_vec())
    } else {
        let source = format!(
            "SELECT m.id AS id, {score} AS score \
             FROM {table} JOIN messages m ON m.id = {table}.rowid \
             WHERE {table} MATCH ?1 AND (?4 IS NULL OR m.session_id = ?4) \
               AND (?5 IS NULL OR m.role = ?5) \
             ORDER BY {table}.rowid DESC LIMIT ?2"
        );
        (
            source,
            params![expr, window, limit, filter.session, role].to_vec(),
        )
    };
    let sql = format!("SELECT id FROM ({source}) ORDER BY score, id DESC LIMIT ?3");
    let mut stmt = conn.prepare_cached(&sql)?;
    let ids = stmt
        .query_map(values.as_slice(), |row| row.get(0))?
        .collect::<rusqlite::Result<Vec<i64>>>()?;
    Ok(ids)
}

/// The hit for message `id`, its snippet marked by `marks`.
fn hit(conn: &Connection, id: i64, marks: &Highlighter) -> Result<SearchHit> {
    let mut stmt = conn.prepare_cached(
        "SELECT m.session_id, s.title, m.role, m.created_at, m.text \
         FROM messages m JOIN sessions s ON s.id = m.session_id WHERE m.id = ?1",
    )?;
    stmt.query_row([id], |row| {
        Ok(SearchHit {
            message_id: id,
            session_id: row.get(0)?,
            session_title: row.get(1)?,
            role: enum_column(row, 2, Role::parse)?,
            created_at: row.get(3)?,
            snippet: marks.snippet(&row.get::<_, String>(4)?),
        })
    })
    .optional()?
    .ok_or_else(|| StoreError::not_found("message", id))
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod settled_tests;

#[cfg(test)]
mod backlog_tests;
