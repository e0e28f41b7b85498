//! Session and message commands: list, create, rename, pin, delete, page through, search.

use hearth_ipc_macros::command;
use hearth_protocol::{AppError, MessagePage, SearchHit, Session, Text};
use hearth_store::{NewSession, Store};
use tauri::State;

use crate::state::{AppState, CommandResult};

#[command]
pub async fn list_sessions(state: State<'_, AppState>) -> CommandResult<Vec<Session>> {
    Ok(state.db.read(|store| store.list_sessions()).await?)
}

/// A new chat, titled in the settings' language until its first message names it. Without a
/// title of its own, an empty "New chat" nobody used yet is reused (and moved to the top)
/// instead, so the sidebar never holds a row of empty chats.
#[command]
pub async fn create_session(
    state: State<'_, AppState>,
    title: Option<String>,
) -> CommandResult<Session> {
    let settings = state.settings();
    let reuse = title.is_none();
    let new = NewSession {
        id: format!("desktop:{}", uuid::Uuid::new_v4()),
        title: title.unwrap_or_else(|| Text::NewChat.in_language(settings.language)),
        model: None,
        workspace: None,
        tool_profile: settings.tool_profile.to_string(),
    };
    state
        .db
        .write(move |store| {
            if reuse {
                if let Some(session) = unused_new_chat(store)? {
                    return Ok(session);
                }
            }
            Ok(store.create_session(&new)?)
        })
        .await
}

/// An empty "New chat" (in any language) nobody used yet, moved to the top.
fn unused_new_chat(store: &Store) -> Result<Option<Session>, AppError> {
    let defaults: Vec<String> = hearth_protocol::Language::ALL
        .iter()
        .map(|language| Text::NewChat.in_language(*language))
        .collect();
    let Some(session) = store.find_unused_session("desktop:", &defaults)? else {
        return Ok(None);
    };
    store.touch_session(&session.id)?;
    match store.get_session(&session.id)? {
        Some(session) => Ok(Some(session)),
        None => Err(AppError::UnknownSession {
            session_id: session.id,
        }),
    }
}

#[command]
pub async fn rename_session(
    state: State<'_, AppState>,
    id: String,
    title: String,
) -> CommandResult<()> {
    Ok(state
        .db
        .write(move |store| store.rename_session(&id, &title))
        .await?)
}

#[command]
pub async fn set_session_pinned(
    state: State<'_, AppState>,
    id: String,
    pinned: bool,
) -> CommandResult<()> {
    Ok(state
        .db
        .write(move |store| store.set_session_pinned(&id, pinned))
        .await?)
}

#[command]
pub async fn set_session_model(
    state: State<'_, AppState>,
    id: String,
    model: Option<String>,
) -> CommandResult<()> {
    Ok(state
        .db
        .write(move |store| store.set_session_model(&id, model.as_deref()))
        .await?)
}

#[command]
pub async fn set_session_workspace(
    state: State<'_, AppState>,
    id: String,
    workspace: String,
) -> CommandResult<()> {
    if !std::path::Path::new(&workspace).is_dir() {
        return Err(AppError::NotAFolder { path: workspace });
    }
    Ok(state
        .db
        .write(move |store| store.set_session_workspace(&id, Some(&workspace)))
        .await?)
}

#[command]
pub async fn delete_session(state: State<'_, AppState>, id: String) -> CommandResult<()> {
    Ok(state
        .db
        .write(move |store| store.delete_session(&id))
        .await?)
}

/// A page of a chat's messages: the `limit` newest before message `before` (the newest when
/// absent), reaching back to message `through` when given (a search hit); each tool result
/// with the views its card shows.
#[command]
pub async fn list_message_page(
    state: State<'_, AppState>,
    session_id: String,
    before: Option<i64>,
    through: Option<i64>,
    limit: i64,
) -> CommandResult<MessagePage> {
    // The views are built on the blocking thread too (search hits run regexes).
    Ok(state
        .db
        .read(move |store| {
            let mut page = store.message_page(&session_id, before, through, limit)?;
            hearth_tools::attach_views(&mut page.messages);
            Ok::<_, hearth_store::StoreError>(page)
        })
        .await?)
}

#[command]
pub async fn search_messages(
    state: State<'_, AppState>,
    query: String,
) -> CommandResult<Vec<SearchHit>> {
    Ok(state
        .db
        .read(move |store| store.search_messages(&query, 50, None, None))
        .await?)
}
