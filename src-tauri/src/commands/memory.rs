//! Memory commands for the Memory page: browse, search (Chinese and English), add, edit, pin,
//! delete, and settle contradictions. Memories added here are the user's own statements.

use hearth_ipc_macros::command;
use hearth_protocol::AppError;
use hearth_store::{
    Contradiction, ContradictionStatus, Memory, MemoryEdit, MemoryFilter, MemoryPage,
    MemorySelector, MemorySource, NewMemory, Resolution, Selected,
};
use serde::{Deserialize, Serialize};
use tauri::State;
use ts_rs::TS;

use crate::state::{AppState, CommandResult};

/// Some memories and how many matched in all.
#[derive(Debug, Serialize, TS)]
pub struct MemoryList {
    pub memories: Vec<Memory>,
    pub total: usize,
}

impl From<MemoryPage> for MemoryList {
    fn from(page: MemoryPage) -> Self {
        MemoryList {
            memories: page.memories,
            total: page.total,
        }
    }
}

/// A memory as the page's form describes it.
#[derive(Debug, Deserialize, TS)]
pub struct MemoryForm {
    pub content: String,
    pub tags: Vec<String>,
    /// 0 to 1.
    pub importance: f64,
}

fn found<T>(id: i64, selected: Selected<T>) -> CommandResult<T> {
    match selected {
        Selected::Found(value) => Ok(value),
        _ => Err(AppError::MemoryGone { id }),
    }
}

#[command]
pub fn list_memories(
    state: State<'_, AppState>,
    offset: usize,
    limit: usize,
) -> CommandResult<MemoryList> {
    let page = state
        .store
        .list_memories(&MemoryFilter::default(), offset, limit);
    page.map(MemoryList::from).map_err(AppError::from)
}

#[command]
pub fn search_memories(
    state: State<'_, AppState>,
    query: String,
    limit: usize,
) -> CommandResult<MemoryList> {
    let page = state
        .store
        .search_memories(&query, &MemoryFilter::default(), limit);
    page.map(MemoryList::from).map_err(AppError::from)
}

#[command]
pub fn add_memory(state: State<'_, AppState>, form: MemoryForm) -> CommandResult<Memory> {
    let mut new = NewMemory::new(form.content, MemorySource::UserStated);
    new.tags = Some(form.tags);
    new.importance = Some(form.importance);
    let outcome = state.store.add_memory(&new).map_err(AppError::from)?;
    Ok(outcome.memory)
}

#[command]
pub fn update_memory(
    state: State<'_, AppState>,
    id: i64,
    form: MemoryForm,
) -> CommandResult<Memory> {
    let edit = MemoryEdit {
        content: Some(form.content),
        tags: Some(form.tags),
        importance: Some(form.importance),
        pinned: None,
    };
    let edited = state.store.edit_memory(MemorySelector::Id(id), &edit);
    found(id, edited.map_err(AppError::from)?).map(|(memory, _)| memory)
}

#[command]
pub fn set_memory_pinned(
    state: State<'_, AppState>,
    id: i64,
    pinned: bool,
) -> CommandResult<Memory> {
    let edit = MemoryEdit {
        pinned: Some(pinned),
        ..MemoryEdit::default()
    };
    let edited = state.store.edit_memory(MemorySelector::Id(id), &edit);
    found(id, edited.map_err(AppError::from)?).map(|(memory, _)| memory)
}

#[command]
pub fn delete_memory(state: State<'_, AppState>, id: i64) -> CommandResult<()> {
    let removed = state.store.remove_memory(MemorySelector::Id(id));
    found(id, removed.map_err(AppError::from)?).map(|_| ())
}

/// Open contradictions, newest first.
#[command]
pub fn list_contradictions(state: State<'_, AppState>) -> CommandResult<Vec<Contradiction>> {
    let limit = hearth_store::MAX_MEMORY_RESULTS;
    let listed = state
        .store
        .list_contradictions(Some(ContradictionStatus::Open), 0, limit);
    listed.map(|(list, _)| list).map_err(AppError::from)
}

/// Keeps `winner_id` (one side of contradiction `id`) and deletes the other side.
#[command]
pub fn resolve_contradiction(
    state: State<'_, AppState>,
    id: i64,
    winner_id: i64,
) -> CommandResult<Memory> {
    match state
        .store
        .resolve_contradiction(id, winner_id)
        .map_err(AppError::from)?
    {
        Resolution::Resolved { winner, .. } => Ok(winner),
        Resolution::AlreadyResolved(_) => Err(AppError::ContradictionResolved { id }),
        Resolution::NotAParty(_) => Err(AppError::NotAParty {
            memory_id: winner_id,
            contradiction_id: id,
        }),
    }
}
