//! Runs an [`AnyTerms`] query against a table with a word index and a trigram index (the layout
//! of memories and session summaries): word matches first, then, when they are too few, rows
//! only the trigram index finds (partial words), then rows holding a short CJK query's characters
//! apart, each with its bm25 relevance. Scoring costs a
//! few microseconds per match, so callers read few columns and fetch whole rows for the winners
//! only.

use std::collections::HashSet;

use rusqlite::{Connection, Row, ToSql};

use super::terms::AnyTerms;
use crate::Result;

/// A content table (aliased `t` in queries) and its two FTS5 indexes.
pub(crate) struct FtsTables {
    pub(crate) table: &'static str,
    pub(crate) words: &'static str,
    pub(crate) trigram: &'static str,
}

/// Which pass found a row: whole words and CJK pairs, substrings only, or CJK characters apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Tier {
    Words,
    Substrings,
    Scattered,
}

/// A matching row.
#[derive(Debug)]
pub(crate) struct Match<T> {
    pub(crate) id: i64,
    pub(crate) row: T,
    pub(crate) tier: Tier,
    /// Negated bm25: higher is more relevant, always above zero.
    pub(crate) relevance: f64,
}

impl<T> Match<T> {
    /// The order of two matches by pass and relevance alone: an earlier pass first, then the
    /// higher bm25.
    pub(crate) fn by_relevance(&self, other: &Match<T>) -> std::cmp::Ordering {
        self.tier
            .cmp(&other.tier)
            .then(other.relevance.total_cmp(&self.relevance))
    }
}

/// What to match and how to read the matching rows.
pub(crate) struct MatchQuery<'a> {
    pub(crate) tables: &'a FtsTables,
    /// Columns over alias `t` the row mapper reads (keep them few: every match is read).
    /// Empty, with an empty `filter`: the content table is not joined, only the index is read
    /// (much faster when a query matches thousands of long rows).
    pub(crate) columns: &'a str,
    /// SQL over alias `t` a row must also satisfy, with its named parameters.
    pub(crate) filter: &'a str,
    pub(crate) params: &'a [(&'a str, &'a dyn ToSql)],
    /// Matches each pass returns at most, best bm25 first.
    pub(crate) window: usize,
    /// Run the later passes (trigram, CJK characters apart) while fewer rows than this are found.
    pub(crate) substrings_below: usize,
}

/// Rows that match `terms` and `query.filter`, read with `map`: word matches first, best first;
/// then, when there were fewer than `query.substrings_below`, rows only the trigram index
/// matches (partial words), best first.
pub(crate) fn any_term_matches<T>(
    conn: &Connection,
    terms: &AnyTerms,
    query: &MatchQuery<'_>,
    map: impl Fn(&Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<Match<T>>> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let passes = [
        (Tier::Words, query.tables.words, terms.word_match()),
        (
            Tier::Substrings,
            query.tables.trigram,
            terms.substring_match(),
        ),
        (Tier::Scattered, query.tables.words, terms.scattered_match()),
    ];
    for (tier, index, expr) in passes {
        let Some(expr) = expr else { continue };
        if tier != Tier::Words && out.len() >= query.substrings_below {
            break;
        }
        let sql = if query.columns.is_empty() && query.filter.is_empty() {
            format!(
                "SELECT rowid AS match_id, -bm25({index}) AS match_relevance FROM {index} \
                 WHERE {index} MATCH :match_expr \
                 ORDER BY match_relevance DESC LIMIT :match_window"
            )
        } else {
            format!(
                "SELECT {columns}, t.id AS match_id, -bm25({index}) AS match_relevance \
                 FROM {index} JOIN {table} t ON t.id = {index}.rowid \
                 WHERE {index} MATCH :match_expr AND ({filter}) \
                 ORDER BY match_relevance DESC LIMIT :match_window",
                columns = query.columns,
                filter = query.filter,
                table = query.tables.table,
            )
        };
        let window = i64::try_from(query.window).unwrap_or(i64::MAX);
        let mut all: Vec<(&str, &dyn ToSql)> = vec![
            (":match_expr", &expr as &dyn ToSql),
            (":match_window", &window),
        ];
        all.extend_from_slice(query.params);
        let mut stmt = conn.prepare_cached(&sql)?;
        let mut rows = stmt.query(all.as_slice())?;
        while let Some(row) = rows.next()? {
            let id: i64 = row.get("match_id")?;
            if seen.insert(id) {
                out.push(Match {
                    id,
                    row: map(row)?,
                    tier,
                    relevance: row.get("match_relevance")?,
                });
            }
        }
    }
    Ok(out)
}
