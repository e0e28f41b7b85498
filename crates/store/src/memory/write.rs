//! Writing memories: `add` (key overwrite, duplicate detection, contradictions and the
//! precedence of user-stated memories), edits and removal.

use rusqlite::{params, OptionalExtension, Transaction};

use super::checked::{check, checked_content, checked_importance, checked_tags, Checked};
use super::conflict::contradiction;
use super::contradictions::{self, Contradiction};
use super::ranked::{any_term_matches, MatchQuery};
use super::search::MEMORY_TABLES;
use super::select::{by_key, select, MemorySelector, Selected};
use super::terms::AnyTerms;
use super::{
    get, index_text, memory_from_row, Memory, MemorySource, MemoryTarget, NewMemory,
    DEFAULT_IMPORTANCE, MEMORY_COLUMNS,
};
use crate::{Result, Store, StoreError};

/// Existing memories compared with a new one for contradictions, the most similar first.
const CONFLICT_CANDIDATES: usize = 20;

/// What `add` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddAction {
    /// Stored as a new memory (possibly with an open contradiction against an equal-ranked one).
    Added,
    /// Replaced the content of a memory: the one with the same key, or a model-inferred memory
    /// the new user-stated one contradicts.
    Overwritten,
    /// The same content was already stored; given tags, importance, pinned and key were applied
    /// to it.
    Duplicate,
    /// Stored as pending: a model-inferred memory contradicting a user-stated one waits for the
    /// contradiction to be resolved.
    HeldBack,
}

/// The result of `add`.
#[derive(Debug, Clone, PartialEq)]
pub struct AddOutcome {
    pub action: AddAction,
    /// The memory now holding the content.
    pub memory: Memory,
    /// For `Overwritten`: the content it had before.
    pub previous_content: Option<String>,
    /// The contradiction recorded, if any (open, or resolved at once by precedence).
    pub contradiction: Option<Contradiction>,
}

/// Changes to a memory; `None` keeps a field.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MemoryEdit {
    pub content: Option<String>,
    pub tags: Option<Vec<String>>,
    pub importance: Option<f64>,
    pub pinned: Option<bool>,
}

/// Writes `memory`'s fields back (content, key, tags, importance, pinned, source, state),
/// reindexing it, with `updated_at` set to `at` when `touched`.
pub(super) fn save(
    tx: &Transaction<'_>,
    memory: &Memory,
    touched: bool,
    at: i64,
) -> Result<Memory> {
    let (text, words) = index_text(&memory.content, memory.key.as_deref(), &memory.tags);
    let updated_at = if touched { at } else { memory.updated_at };
    tx.prepare_cached(
        "UPDATE memories SET key = ?2, content = ?3, tags = ?4, importance = ?5, pinned = ?6, \
         source = ?7, state = ?8, text = ?9, words = ?10, updated_at = ?11 WHERE id = ?1",
    )?
    .execute(params![
        memory.id,
        memory.key,
        memory.content,
        serde_json::to_string(&memory.tags)?,
        memory.importance,
        memory.pinned,
        memory.source.as_str(),
        if memory.pending { "pending" } else { "active" },
        text,
        words,
        updated_at
    ])?;
    get(tx, memory.id)?.ok_or_else(|| StoreError::not_found("memory", memory.id))
}

fn insert(
    tx: &Transaction<'_>,
    new: &Checked,
    source: MemorySource,
    target: MemoryTarget,
    pending: bool,
    at: i64,
) -> Result<Memory> {
    let tags = new.tags.clone().unwrap_or_default();
    let (text, words) = index_text(&new.content, new.key.as_deref(), &tags);
    tx.prepare_cached(
        "INSERT INTO memories (key, content, tags, importance, pinned, source, target, category, \
         state, text, words, created_at, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?12)",
    )?
    .execute(params![
        new.key,
        new.content,
        serde_json::to_string(&tags)?,
        new.importance.unwrap_or(DEFAULT_IMPORTANCE),
        new.pinned.unwrap_or(false),
        source.as_str(),
        target.as_str(),
        new.category,
        if pending { "pending" } else { "active" },
        text,
        words,
        at
    ])?;
    let id = tx.last_insert_rowid();
    get(tx, id)?.ok_or_else(|| StoreError::not_found("memory", id))
}

/// `memory` with the optional fields of `new` applied (the key only where it has none).
fn apply_metadata(mut memory: Memory, new: &Checked) -> Memory {
    if let Some(tags) = &new.tags {
        memory.tags.clone_from(tags);
    }
    if let Some(importance) = new.importance {
        memory.importance = importance;
    }
    if let Some(pinned) = new.pinned {
        memory.pinned = pinned;
    }
    if memory.key.is_none() {
        memory.key.clone_from(&new.key);
    }
    memory
}

/// A memory on the same target with exactly this content and no other key (active first).
fn same(tx: &Transaction<'_>, new: &Checked, target: MemoryTarget) -> Result<Option<Memory>> {
    let sql = format!(
        "SELECT {MEMORY_COLUMNS} FROM memories t WHERE t.content = ?1 AND t.target = ?2 \
         AND (t.key IS NULL OR ?3 IS NULL OR t.key = ?3) ORDER BY t.state, t.id LIMIT 1"
    );
    Ok(tx
        .prepare_cached(&sql)?
        .query_row(
            params![new.content, target.as_str(), new.key],
            memory_from_row,
        )
        .optional()?)
}

/// Active memories on the same target, without another key, that share words with `new`: the
/// [`CONFLICT_CANDIDATES`] most similar by bm25.
fn similar(tx: &Transaction<'_>, new: &Checked, target: MemoryTarget) -> Result<Vec<Memory>> {
    let terms = AnyTerms::parse(&new.content);
    let target = target.as_str();
    let query = MatchQuery {
        tables: &MEMORY_TABLES,
        columns: MEMORY_COLUMNS,
        filter: "t.state = 'active' AND t.target = :target \
                 AND (t.key IS NULL OR :key IS NULL OR t.key = :key)",
        params: &[(":target", &target), (":key", &new.key)],
        window: CONFLICT_CANDIDATES,
        substrings_below: 0,
    };
    let matches = any_term_matches(tx, &terms, &query, memory_from_row)?;
    Ok(matches.into_iter().map(|m| m.row).collect())
}

impl Store {
    /// Remembers `new`. With a key another memory has, that memory is overwritten unless it is
    /// user-stated and `new` model-inferred (then `new` is held back, pending, behind an open
    /// contradiction). Otherwise an identical memory is reused; a contradicting one on the same
    /// subject (see `conflict`) is overwritten when `new` outranks it, holds `new` back when it
    /// outranks `new`, and is left beside `new` with an open contradiction when they rank alike.
    pub fn add_memory(&self, new: &NewMemory) -> Result<AddOutcome> {
        let checked = check(new)?;
        let now = self.now_ms();
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let outcome = add(&tx, &checked, new, now)?;
        tx.commit()?;
        Ok(outcome)
    }

    /// Changes the memory `selector` names (content, tags, importance, pinned); a new content
    /// counts as a write (`updated_at`). Returns the memory and its previous content.
    pub fn edit_memory(
        &self,
        selector: MemorySelector<'_>,
        edit: &MemoryEdit,
    ) -> Result<Selected<(Memory, String)>> {
        let content = edit.content.as_deref().map(checked_content).transpose()?;
        let tags = edit.tags.as_deref().map(checked_tags).transpose()?;
        let importance = edit.importance.map(checked_importance).transpose()?;
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let mut memory = match select(&tx, selector)? {
            Selected::Found(memory) => memory,
            Selected::Missing => return Ok(Selected::Missing),
            Selected::Ambiguous { count, examples } => {
                return Ok(Selected::Ambiguous { count, examples })
            }
        };
        let previous = memory.content.clone();
        let touched = content.as_ref().is_some_and(|c| *c != previous);
        if let Some(content) = content {
            memory.content = content;
        }
        if let Some(tags) = tags {
            memory.tags = tags;
        }
        if let Some(importance) = importance {
            memory.importance = importance;
        }
        if let Some(pinned) = edit.pinned {
            memory.pinned = pinned;
        }
        let saved = save(&tx, &memory, touched, self.now_ms())?;
        tx.commit()?;
        Ok(Selected::Found((saved, previous)))
    }

    /// Forgets the memory `selector` names. Its open contradictions are resolved in favour of
    /// the other side (which becomes active if it was held back).
    pub fn remove_memory(&self, selector: MemorySelector<'_>) -> Result<Selected<Memory>> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let memory = match select(&tx, selector)? {
            Selected::Found(memory) => memory,
            Selected::Missing => return Ok(Selected::Missing),
            Selected::Ambiguous { count, examples } => {
                return Ok(Selected::Ambiguous { count, examples })
            }
        };
        contradictions::forget(&tx, memory.id, self.now_ms())?;
        tx.commit()?;
        Ok(Selected::Found(memory))
    }
}

fn add(tx: &Transaction<'_>, new: &Checked, raw: &NewMemory, now: i64) -> Result<AddOutcome> {
    let outcome = |action, memory, previous_content, contradiction| AddOutcome {
        action,
        memory,
        previous_content,
        contradiction,
    };
    if let Some(existing) = new
        .key
        .as_deref()
        .map(|k| by_key(tx, k))
        .transpose()?
        .flatten()
    {
        if existing.content == new.content {
            let memory = save(tx, &apply_metadata(existing, new), false, now)?;
            return Ok(outcome(AddAction::Duplicate, memory, None, None));
        }
        if raw.source >= existing.source {
            let previous = existing.content.clone();
            let mut memory = apply_metadata(existing, new);
            memory.content.clone_from(&new.content);
            memory.source = raw.source;
            let memory = save(tx, &memory, true, now)?;
            return Ok(outcome(
                AddAction::Overwritten,
                memory,
                Some(previous),
                None,
            ));
        }
        let keyless = Checked {
            key: None,
            ..new.clone()
        };
        let held = insert(tx, &keyless, raw.source, raw.target, true, now)?;
        let reason = format!(
            "same key {:?}: a model-inferred memory does not overwrite a user-stated one",
            existing.key.as_deref().unwrap_or_default()
        );
        let record = contradictions::record(tx, &existing, &held, &reason, true, now)?;
        return Ok(outcome(AddAction::HeldBack, held, None, Some(record)));
    }
    if let Some(same) = same(tx, new, raw.target)? {
        let memory = save(tx, &apply_metadata(same, new), false, now)?;
        return Ok(outcome(AddAction::Duplicate, memory, None, None));
    }
    let conflict = similar(tx, new, raw.target)?
        .into_iter()
        .find_map(|m| contradiction(&m.content, &new.content).map(|reason| (m, reason)));
    let Some((existing, reason)) = conflict else {
        let memory = insert(tx, new, raw.source, raw.target, false, now)?;
        return Ok(outcome(AddAction::Added, memory, None, None));
    };
    if raw.source > existing.source {
        let previous = existing.content.clone();
        let mut memory = apply_metadata(existing, new);
        memory.content.clone_from(&new.content);
        memory.source = raw.source;
        let memory = save(tx, &memory, true, now)?;
        let reason = format!("{reason}; the user-stated memory replaced the model-inferred one");
        let record = contradictions::record_overwrite(tx, &memory, &previous, &reason, now)?;
        return Ok(outcome(
            AddAction::Overwritten,
            memory,
            Some(previous),
            Some(record),
        ));
    }
    let held_back = raw.source < existing.source;
    let memory = insert(tx, new, raw.source, raw.target, held_back, now)?;
    let record = contradictions::record(tx, &existing, &memory, &reason, held_back, now)?;
    let action = if held_back {
        AddAction::HeldBack
    } else {
        AddAction::Added
    };
    Ok(outcome(action, memory, None, Some(record)))
}
