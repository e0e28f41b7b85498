//! Session and message commands: list, create, rename, pin, delete, page through, search.

use hearth_ipc_macros::command;
use hearth_protocol::{AppError, MessagePage, SearchHit, Session, Text};
use tauri::State;

use crate::state::{AppState, CommandResult};

#[command]
pub fn list_sessions(state: State<'_, AppState>) -> CommandResult<Vec<Session>> {
    state.store.list_sessions().map_err(AppError::from)
}

/// A new chat, titled in the settings' language until its first message names it. Without a
/// title of its own, an empty "New chat" nobody used yet is reused (and moved to the top)
/// instead, so the sidebar never holds a row of empty chats.
#[command]
pub fn create_session(state: State<'_, AppState>, title: Option<String>) -> CommandResult<Session> {
    let settings = state.settings();
    if title.is_none() {
        let defaults: Vec<String> = hearth_protocol::Language::ALL
            .iter()
            .map(|language| Text::NewChat.in_language(*language))
            .collect();
        let unused = state.store.find_unused_session("desktop:", &defaults);
        if let Some(session) = unused.map_err(AppError::from)? {
            state
                .store
                .touch_session(&session.id)
                .map_err(AppError::from)?;
            return state
                .store
                .get_session(&session.id)
                .map_err(AppError::from)?
                .ok_or(AppError::UnknownSession {
                    session_id: session.id,
                });
        }
    }
    state
        .store
        .create_session(&hearth_store::NewSession {
            id: format!("desktop:{}", uuid::Uuid::new_v4()),
            title: title.unwrap_or_else(|| Text::NewChat.in_language(settings.language)),
            model: None,
            workspace: None,
            tool_profile: settings.tool_profile.to_string(),
        })
        .map_err(AppError::from)
}

#[command]
pub fn rename_session(state: State<'_, AppState>, id: String, title: String) -> CommandResult<()> {
    state
        .store
        .rename_session(&id, &title)
        .map_err(AppError::from)
}

#[command]
pub fn set_session_pinned(
    state: State<'_, AppState>,
    id: String,
    pinned: bool,
) -> CommandResult<()> {
    state
        .store
        .set_session_pinned(&id, pinned)
        .map_err(AppError::from)
}

#[command]
pub fn set_session_model(
    state: State<'_, AppState>,
    id: String,
    model: Option<String>,
) -> CommandResult<()> {
    state
        .store
        .set_session_model(&id, model.as_deref())
        .map_err(AppError::from)
}

#[command]
pub fn set_session_workspace(
    state: State<'_, AppState>,
    id: String,
    workspace: String,
) -> CommandResult<()> {
    if !std::path::Path::new(&workspace).is_dir() {
        return Err(AppError::NotAFolder { path: workspace });
    }
    state
        .store
        .set_session_workspace(&id, Some(&workspace))
        .map_err(AppError::from)
}

#[command]
pub fn delete_session(state: State<'_, AppState>, id: String) -> CommandResult<()> {
    state.store.delete_session(&id).map_err(AppError::from)
}

/// A page of a chat's messages: the `limit` newest before message `before` (the newest when
/// absent), reaching back to message `through` when given (a search hit); each tool result
/// with the views its card shows.
#[command]
pub fn list_message_page(
    state: State<'_, AppState>,
    session_id: String,
    before: Option<i64>,
    through: Option<i64>,
    limit: i64,
) -> CommandResult<MessagePage> {
    let mut page = state
        .store
        .message_page(&session_id, before, through, limit)
        .map_err(AppError::from)?;
    hearth_tools::attach_views(&mut page.messages);
    Ok(page)
}

#[command]
pub fn search_messages(state: State<'_, AppState>, query: String) -> CommandResult<Vec<SearchHit>> {
    state
        .store
        .search_messages(&query, 50, None, None)
        .map_err(AppError::from)
}
