//! Long-term memories: their types and rows. Writing (with contradiction detection), searching
//! and contradictions live in the submodules.

mod checked;
mod conflict;
mod contradictions;
mod ranked;
mod search;
mod select;
mod terms;
mod write;

use rusqlite::types::Type;
use rusqlite::{Connection, OptionalExtension, Row};
use serde::{Deserialize, Serialize};

use crate::search::text::word_form;
use crate::Result;
use ts_rs::TS;

pub use contradictions::{Contradiction, ContradictionStatus, Resolution};
pub use search::{MemoryFilter, MemoryPage};
pub use select::{MemorySelector, Selected};
pub use write::{AddAction, AddOutcome, MemoryEdit};

pub(crate) use ranked::{any_term_matches, FtsTables, MatchQuery};
pub(crate) use terms::AnyTerms;

/// Longest memory content, in characters.
pub const MAX_MEMORY_CHARS: usize = 10_000;
/// Longest memory key, in characters.
pub const MAX_KEY_CHARS: usize = 200;
/// Most tags a memory keeps, and the longest tag in characters.
pub const MAX_TAGS: usize = 20;
pub const MAX_TAG_CHARS: usize = 64;
/// Longest category name, in characters.
pub const MAX_CATEGORY_CHARS: usize = 64;
/// Most memories one search or page returns.
pub const MAX_MEMORY_RESULTS: usize = 50;
/// Importance of a memory added without one.
pub const DEFAULT_IMPORTANCE: f64 = 0.5;
/// Category of a memory added without one.
pub const DEFAULT_CATEGORY: &str = "general";

/// Who said it. A user's own statement outranks what the model inferred.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum MemorySource {
    ModelInferred,
    UserStated,
}

impl MemorySource {
    pub fn as_str(self) -> &'static str {
        match self {
            MemorySource::ModelInferred => "model_inferred",
            MemorySource::UserStated => "user_stated",
        }
    }

    pub fn parse(value: &str) -> Option<MemorySource> {
        match value {
            "model_inferred" => Some(MemorySource::ModelInferred),
            "user_stated" => Some(MemorySource::UserStated),
            _ => None,
        }
    }
}

/// What a memory is about: the user (preferences, facts) or their environment (machines,
/// projects, places).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum MemoryTarget {
    User,
    Environment,
}

impl MemoryTarget {
    pub fn as_str(self) -> &'static str {
        match self {
            MemoryTarget::User => "user",
            MemoryTarget::Environment => "environment",
        }
    }

    pub fn parse(value: &str) -> Option<MemoryTarget> {
        match value {
            "user" => Some(MemoryTarget::User),
            "environment" => Some(MemoryTarget::Environment),
            _ => None,
        }
    }
}

/// A stored memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Memory {
    pub id: i64,
    pub key: Option<String>,
    pub content: String,
    pub tags: Vec<String>,
    /// 0 to 1.
    pub importance: f64,
    pub pinned: bool,
    pub source: MemorySource,
    pub target: MemoryTarget,
    pub category: String,
    /// Held back by an open contradiction with a user-stated memory: not searched, not in the
    /// system prompt.
    pub pending: bool,
    /// Unix milliseconds.
    pub created_at: i64,
    /// When the content was last written, unix milliseconds.
    pub updated_at: i64,
}

/// A memory to add. `None` fields take their defaults on a new memory and are left as they are
/// when the memory overwrites one with the same key.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMemory {
    pub content: String,
    pub key: Option<String>,
    pub tags: Option<Vec<String>>,
    pub importance: Option<f64>,
    pub pinned: Option<bool>,
    pub source: MemorySource,
    pub target: MemoryTarget,
    /// Default [`DEFAULT_CATEGORY`].
    pub category: Option<String>,
}

impl NewMemory {
    /// A memory about the user with `content`, everything else default.
    pub fn new(content: impl Into<String>, source: MemorySource) -> NewMemory {
        NewMemory {
            content: content.into(),
            key: None,
            tags: None,
            importance: None,
            pinned: None,
            source,
            target: MemoryTarget::User,
            category: None,
        }
    }
}

/// Every column of a memory, for `memory_from_row`.
pub(crate) const MEMORY_COLUMNS: &str = "t.id, t.key, t.content, t.tags, t.importance, t.pinned, \
     t.source, t.target, t.category, t.state, t.created_at, t.updated_at";

fn text_enum<T>(row: &Row<'_>, name: &str, parse: fn(&str) -> Option<T>) -> rusqlite::Result<T> {
    let value: String = row.get(name)?;
    parse(&value).ok_or_else(|| {
        let message = format!("unexpected {name} {value:?}");
        rusqlite::Error::FromSqlConversionFailure(0, Type::Text, message.into())
    })
}

/// Reads a memory selected with [`MEMORY_COLUMNS`] (columns are read by name).
pub(crate) fn memory_from_row(row: &Row<'_>) -> rusqlite::Result<Memory> {
    let tags: String = row.get("tags")?;
    let state: String = row.get("state")?;
    Ok(Memory {
        id: row.get("id")?,
        key: row.get("key")?,
        content: row.get("content")?,
        tags: serde_json::from_str(&tags)
            .map_err(|e| rusqlite::Error::FromSqlConversionFailure(0, Type::Text, Box::new(e)))?,
        importance: row.get("importance")?,
        pinned: row.get("pinned")?,
        source: text_enum(row, "source", MemorySource::parse)?,
        target: text_enum(row, "target", MemoryTarget::parse)?,
        category: row.get("category")?,
        pending: state == "pending",
        created_at: row.get("created_at")?,
        updated_at: row.get("updated_at")?,
    })
}

pub(crate) fn get(conn: &Connection, id: i64) -> Result<Option<Memory>> {
    let sql = format!("SELECT {MEMORY_COLUMNS} FROM memories t WHERE t.id = ?1");
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([id], memory_from_row)
        .optional()?)
}

/// The indexed forms of a memory: (`text`, `words`).
pub(crate) fn index_text(content: &str, key: Option<&str>, tags: &[String]) -> (String, String) {
    let mut pieces = vec![content.to_string()];
    pieces.extend(key.map(str::to_string));
    if !tags.is_empty() {
        pieces.push(tags.join(" "));
    }
    let text = pieces.join("\n");
    let words = word_form(&text);
    (text, words)
}

/// Tags trimmed, lower-cased, deduplicated, without empty ones.
pub(crate) fn normalize_tags(tags: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for tag in tags {
        let tag = tag.trim().to_lowercase();
        if !tag.is_empty() && !out.contains(&tag) {
            out.push(tag);
        }
    }
    out
}

impl crate::Store {
    pub fn get_memory(&self, id: i64) -> Result<Option<Memory>> {
        get(&self.conn(), id)
    }
}

#[cfg(test)]
mod contradiction_tests;
#[cfg(test)]
mod search_tests;
#[cfg(test)]
mod tests;
