//! Naming one memory for an edit or removal: by id, by key, or by a unique piece of its text.

use rusqlite::{Connection, OptionalExtension};

use super::{get, memory_from_row, Memory, MEMORY_COLUMNS};
use crate::Result;

/// How an edit or removal names its memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemorySelector<'a> {
    Id(i64),
    Key(&'a str),
    /// The one active memory whose content contains this text.
    Containing(&'a str),
}

/// A selector's outcome.
#[derive(Debug, Clone, PartialEq)]
pub enum Selected<T> {
    Found(T),
    Missing,
    /// The text is in several memories (the first few are listed).
    Ambiguous {
        count: usize,
        examples: Vec<Memory>,
    },
}

pub(super) fn by_key(conn: &Connection, key: &str) -> Result<Option<Memory>> {
    let sql = format!("SELECT {MEMORY_COLUMNS} FROM memories t WHERE t.key = ?1");
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([key], memory_from_row)
        .optional()?)
}

/// How many memories an ambiguous selector lists.
const AMBIGUOUS_EXAMPLES: usize = 5;

pub(super) fn select(conn: &Connection, selector: MemorySelector<'_>) -> Result<Selected<Memory>> {
    let found = match selector {
        MemorySelector::Id(id) => get(conn, id)?,
        MemorySelector::Key(key) => by_key(conn, key.trim())?,
        MemorySelector::Containing("") => None,
        MemorySelector::Containing(text) => {
            let sql = format!(
                "SELECT {MEMORY_COLUMNS} FROM memories t \
                 WHERE t.state = 'active' AND instr(t.content, ?1) > 0 \
                 ORDER BY t.updated_at DESC, t.id DESC"
            );
            let mut matches = conn
                .prepare_cached(&sql)?
                .query_map([text], memory_from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            if matches.len() > 1 {
                let count = matches.len();
                matches.truncate(AMBIGUOUS_EXAMPLES);
                return Ok(Selected::Ambiguous {
                    count,
                    examples: matches,
                });
            }
            matches.pop()
        }
    };
    Ok(found.map_or(Selected::Missing, Selected::Found))
}
