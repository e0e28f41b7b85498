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
pub async fn list_memories(
    state: State<'_, AppState>,
    offset: usize,
    limit: usize,
) -> CommandResult<MemoryList> {
    let page = state
        .db
        .read(move |store| store.list_memories(&MemoryFilter::default(), offset, limit))
        .await?;
    Ok(MemoryList::from(page))
}

#[command]
pub async fn search_memories(
    state: State<'_, AppState>,
    query: String,
    limit: usize,
) -> CommandResult<MemoryList> {
    let page = state
        .db
        .read(move |store| store.search_memories(&query, &MemoryFilter::default(), limit))
        .await?;
    Ok(MemoryList::from(page))
}

#[command]
pub async fn add_memory(state: State<'_, AppState>, form: MemoryForm) -> CommandResult<Memory> {
    let mut new = NewMemory::new(form.content, MemorySource::UserStated);
    new.tags = Some(form.tags);
    new.importance = Some(form.importance);
    let outcome = state.db.write(move |store| store.add_memory(&new)).await?;
    Ok(outcome.memory)
}

#[command]
pub async fn update_memory(
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
    edit_memory(&state, id, edit).await
}

#[command]
pub async fn set_memory_pinned(
    state: State<'_, AppState>,
    id: i64,
    pinned: bool,
) -> CommandResult<Memory> {
    let edit = MemoryEdit {
        pinned: Some(pinned),
        ..MemoryEdit::default()
    };
    edit_memory(&state, id, edit).await
}

/// Applies `edit` to memory `id`; the memory as it is now.
async fn edit_memory(state: &AppState, id: i64, edit: MemoryEdit) -> CommandResult<Memory> {
    let edited = state
        .db
        .write(move |store| store.edit_memory(MemorySelector::Id(id), &edit))
        .await?;
    found(id, edited).map(|(memory, _)| memory)
}

#[command]
pub async fn delete_memory(state: State<'_, AppState>, id: i64) -> CommandResult<()> {
    let removed = state
        .db
        .write(move |store| store.remove_memory(MemorySelector::Id(id)))
        .await?;
    found(id, removed).map(|_| ())
}

/// Open contradictions, newest first.
#[command]
pub async fn list_contradictions(state: State<'_, AppState>) -> CommandResult<Vec<Contradiction>> {
    let limit = hearth_store::MAX_MEMORY_RESULTS;
    let (list, _) = state
        .db
        .read(move |store| store.list_contradictions(Some(ContradictionStatus::Open), 0, limit))
        .await?;
    Ok(list)
}

/// Keeps `winner_id` (one side of contradiction `id`) and deletes the other side.
#[command]
pub async fn resolve_contradiction(
    state: State<'_, AppState>,
    id: i64,
    winner_id: i64,
) -> CommandResult<Memory> {
    let resolution = state
        .db
        .write(move |store| store.resolve_contradiction(id, winner_id))
        .await?;
    match resolution {
        Resolution::Resolved { winner, .. } => Ok(winner),
        Resolution::AlreadyResolved(_) => Err(AppError::ContradictionResolved { id }),
        Resolution::NotAParty(_) => Err(AppError::NotAParty {
            memory_id: winner_id,
            contradiction_id: id,
        }),
    }
}
