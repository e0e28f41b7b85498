//! Finding memories: full-text search ranked by relevance × importance, paging with filters,
//! and the pinned and relevant memories that fit a system prompt's token budget.

use hearth_protocol::estimate_tokens;
use rusqlite::{Connection, Row, ToSql};

use super::ranked::{any_term_matches, FtsTables, Match, MatchQuery};
use super::terms::AnyTerms;
use super::{get, memory_from_row, Memory, MemoryTarget, MAX_MEMORY_RESULTS, MEMORY_COLUMNS};
use crate::{Result, Store};

pub(crate) const MEMORY_TABLES: FtsTables = FtsTables {
    table: "memories",
    words: "memories_fts",
    trigram: "memories_trigram",
};

/// Share of the score a memory of importance 0 keeps (importance 1 keeps all of it).
const IMPORTANCE_FLOOR: f64 = 0.2;
/// Tokens a memory costs in the prompt beyond its content (bullet, line break, markers).
const PROMPT_LINE_TOKENS: usize = 4;
/// Pinned memories considered for the prompt.
const MAX_PINNED: i64 = 200;
/// Matches a search ranks at most per pass (best bm25 first).
const SEARCH_WINDOW: usize = 1000;
/// Matches ranked for the prompt (only the best few can fit a budget).
const PROMPT_WINDOW: usize = 200;

/// Which active memories a search or listing considers. Empty means no restriction.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MemoryFilter {
    /// Written (`updated_at`) at or after, unix milliseconds.
    pub since: Option<i64>,
    /// Written at or before, unix milliseconds.
    pub until: Option<i64>,
    pub category: Option<String>,
    pub target: Option<MemoryTarget>,
    /// Tags a memory must all have (compared lower-case).
    pub tags: Vec<String>,
}

/// Some memories, and how many matched in all.
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryPage {
    pub memories: Vec<Memory>,
    pub total: usize,
}

/// A [`MemoryFilter`] as SQL over alias `t` (only the restrictions set, so an unfiltered search
/// pays nothing per match) with its named parameters.
struct FilterSql {
    since: Option<i64>,
    until: Option<i64>,
    category: Option<String>,
    target: Option<&'static str>,
    tags: Option<String>,
}

impl FilterSql {
    fn new(filter: &MemoryFilter) -> Result<FilterSql> {
        let tags = super::normalize_tags(&filter.tags);
        Ok(FilterSql {
            since: filter.since,
            until: filter.until,
            category: filter.category.clone(),
            target: filter.target.map(MemoryTarget::as_str),
            tags: (!tags.is_empty())
                .then(|| serde_json::to_string(&tags))
                .transpose()?,
        })
    }

    fn sql(&self) -> String {
        let mut clauses = vec!["t.state = 'active'"];
        let restrictions = [
            (self.since.is_some(), "t.updated_at >= :since"),
            (self.until.is_some(), "t.updated_at <= :until"),
            (self.category.is_some(), "t.category = :category"),
            (self.target.is_some(), "t.target = :target"),
            (
                self.tags.is_some(),
                "NOT EXISTS (SELECT 1 FROM json_each(:tags) f \
                 WHERE f.value NOT IN (SELECT value FROM json_each(t.tags)))",
            ),
        ];
        clauses.extend(
            restrictions
                .iter()
                .filter(|(set, _)| *set)
                .map(|(_, sql)| *sql),
        );
        clauses.join(" AND ")
    }

    fn named(&self) -> Vec<(&str, &dyn ToSql)> {
        let mut named: Vec<(&str, &dyn ToSql)> = Vec::new();
        if let Some(since) = &self.since {
            named.push((":since", since));
        }
        if let Some(until) = &self.until {
            named.push((":until", until));
        }
        if let Some(category) = &self.category {
            named.push((":category", category));
        }
        if let Some(target) = &self.target {
            named.push((":target", target));
        }
        if let Some(tags) = &self.tags {
            named.push((":tags", tags));
        }
        named
    }
}

/// What ranking a match needs besides its relevance.
struct Rank {
    pinned: bool,
    importance: f64,
    updated_at: i64,
}

fn rank_from_row(row: &Row<'_>) -> rusqlite::Result<Rank> {
    Ok(Rank {
        pinned: row.get("pinned")?,
        importance: row.get("importance")?,
        updated_at: row.get("updated_at")?,
    })
}

/// The order of search results: word matches before partial-word ones, pinned first within
/// each, then relevance × importance, then the most recently written.
fn rank(matches: &mut [Match<Rank>]) {
    let score = |m: &Match<Rank>| {
        m.relevance * (IMPORTANCE_FLOOR + (1.0 - IMPORTANCE_FLOOR) * m.row.importance)
    };
    matches.sort_by(|a, b| {
        a.tier
            .cmp(&b.tier)
            .then(b.row.pinned.cmp(&a.row.pinned))
            .then(score(b).total_cmp(&score(a)))
            .then(b.row.updated_at.cmp(&a.row.updated_at))
            .then(b.id.cmp(&a.id))
    });
}

/// Active memories matching `query` and `filter`, ranked (see [`rank`]).
fn search(
    conn: &Connection,
    query: &str,
    filter: &MemoryFilter,
    window: usize,
    substrings_below: usize,
) -> Result<Vec<Match<Rank>>> {
    let terms = AnyTerms::parse(query);
    if terms.is_empty() {
        return Ok(Vec::new());
    }
    let filter = FilterSql::new(filter)?;
    let query = MatchQuery {
        tables: &MEMORY_TABLES,
        columns: "t.pinned, t.importance, t.updated_at",
        filter: &filter.sql(),
        params: &filter.named(),
        window,
        substrings_below,
    };
    let mut matches = any_term_matches(conn, &terms, &query, rank_from_row)?;
    rank(&mut matches);
    Ok(matches)
}

/// The whole memories of `matches`, in order.
fn memories(conn: &Connection, matches: &[Match<Rank>]) -> Result<Vec<Memory>> {
    let mut out = Vec::with_capacity(matches.len());
    for m in matches {
        out.extend(get(conn, m.id)?);
    }
    Ok(out)
}

impl Store {
    /// Active memories holding any word of `query` (CJK text by character pairs; English
    /// stopwords ignored when other words are present), best first: pinned first, then bm25
    /// relevance × importance, then the most recent. Partial-word matches (`coffe`) follow when
    /// whole words find fewer than `limit`. `total` counts the matches found (at most 1,000
    /// per pass); at most `limit`, capped at [`MAX_MEMORY_RESULTS`], are
    /// returned.
    pub fn search_memories(
        &self,
        query: &str,
        filter: &MemoryFilter,
        limit: usize,
    ) -> Result<MemoryPage> {
        let limit = limit.min(MAX_MEMORY_RESULTS);
        let conn = self.conn();
        let matches = search(&conn, query, filter, SEARCH_WINDOW, limit)?;
        let memories = memories(&conn, &matches[..limit.min(matches.len())])?;
        Ok(MemoryPage {
            memories,
            total: matches.len(),
        })
    }

    /// Active memories passing `filter`, pinned first then the most recently written, skipping
    /// `offset`, at most `limit` (capped at [`MAX_MEMORY_RESULTS`]).
    pub fn list_memories(
        &self,
        filter: &MemoryFilter,
        offset: usize,
        limit: usize,
    ) -> Result<MemoryPage> {
        let filter = FilterSql::new(filter)?;
        let conn = self.conn();
        let count_sql = format!("SELECT COUNT(*) FROM memories t WHERE {}", filter.sql());
        let total: i64 = conn
            .prepare_cached(&count_sql)?
            .query_row(filter.named().as_slice(), |row| row.get(0))?;
        let sql = format!(
            "SELECT {MEMORY_COLUMNS} FROM memories t WHERE {} \
             ORDER BY t.pinned DESC, t.updated_at DESC, t.id DESC LIMIT :limit OFFSET :offset",
            filter.sql()
        );
        let limit = i64::try_from(limit.min(MAX_MEMORY_RESULTS)).unwrap_or(0);
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let mut named = filter.named();
        named.push((":limit", &limit));
        named.push((":offset", &offset));
        let memories = conn
            .prepare_cached(&sql)?
            .query_map(named.as_slice(), memory_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(MemoryPage {
            memories,
            total: usize::try_from(total).unwrap_or(0),
        })
    }

    /// The memories for a system prompt about `query` (e.g. the user's message): pinned ones
    /// first (most important first), then those matching `query` by whole words, best first,
    /// each taken while the running total of [`estimate_tokens`] (plus a few tokens per line)
    /// stays within `token_budget`.
    pub fn pinned_and_relevant(&self, query: &str, token_budget: usize) -> Result<Vec<Memory>> {
        let conn = self.conn();
        let sql = format!(
            "SELECT {MEMORY_COLUMNS} FROM memories t WHERE t.state = 'active' AND t.pinned = 1 \
             ORDER BY t.importance DESC, t.updated_at DESC, t.id DESC LIMIT ?1"
        );
        let pinned = conn
            .prepare_cached(&sql)?
            .query_map([MAX_PINNED], memory_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let mut relevant = search(&conn, query, &MemoryFilter::default(), PROMPT_WINDOW, 0)?;
        relevant.retain(|m| !m.row.pinned);
        relevant.truncate(MAX_MEMORY_RESULTS);
        let mut used = 0;
        let mut chosen = Vec::new();
        for memory in pinned.into_iter().chain(memories(&conn, &relevant)?) {
            let cost = estimate_tokens(&memory.content) + PROMPT_LINE_TOKENS;
            if used + cost <= token_budget {
                used += cost;
                chosen.push(memory);
            }
        }
        Ok(chosen)
    }
}
