//! Turn commands: send, regenerate, edit-and-fork, cancel, answer an approval. Progress streams
//! over a `Channel<EngineEvent>` (text deltas merged per frame, see [`crate::stream`]); a turn that ends while the window is hidden or unfocused is
//! announced with an OS notification.

use hearth_engine::{Engine, EngineError, Notice, TurnSummary};
use hearth_protocol::{AppError, ApprovalDecision, ContentPart, EngineEvent, Session};
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, State};
use tokio_util::sync::CancellationToken;

use crate::state::{AppState, CommandResult};

/// Runs a turn (the engine registers it with the app's running turns, which own its cancel
/// token), then notifies if nobody was watching.
async fn run_turn<F, Fut>(
    app: &AppHandle,
    state: &AppState,
    session_id: &str,
    on_event: Channel<EngineEvent>,
    turn: F,
) -> CommandResult<()>
where
    F: FnOnce(Engine, Box<dyn Fn(EngineEvent) + Send + Sync>, CancellationToken) -> Fut,
    Fut: std::future::Future<Output = Result<TurnSummary, EngineError>>,
{
    let engine = state.engine().await?;
    let cancel = CancellationToken::new();
    let (events, received) = tokio::sync::mpsc::unbounded_channel();
    let forwarder = tauri::async_runtime::spawn(crate::stream::forward(received, move |event| {
        let _ = on_event.send(event);
    }));
    let sink = Box::new(move |event: EngineEvent| {
        let _ = events.send(event);
    });
    // The turn's future owns the sink: once it is done the forwarder drains and ends.
    let outcome = turn(engine, sink, cancel).await;
    let _ = forwarder.await;
    notify_if_unwatched(app, state, session_id, outcome.as_ref().err());
    outcome.map(|_| ()).map_err(AppError::from)
}

fn notify_if_unwatched(
    app: &AppHandle,
    state: &AppState,
    session_id: &str,
    error: Option<&EngineError>,
) {
    let watched = app
        .get_webview_window("main")
        .is_some_and(|w| w.is_visible().unwrap_or(false) && w.is_focused().unwrap_or(false));
    if watched {
        return;
    }
    let title = state
        .store
        .get_session(session_id)
        .ok()
        .flatten()
        .map(|s| s.title)
        .unwrap_or_else(|| "Hearth".to_string());
    let body = match error {
        None => "Hearth finished replying.".to_string(),
        Some(e) => format!("The reply failed: {e}"),
    };
    crate::notices::show(
        app,
        state.notifier.clone(),
        Notice {
            title,
            body,
            urgent: false,
            sound: true,
        },
        Some(session_id.to_string()),
    );
}

#[tauri::command]
pub async fn send_message(
    app: AppHandle,
    state: State<'_, AppState>,
    session_id: String,
    content: Vec<ContentPart>,
    on_event: Channel<EngineEvent>,
) -> CommandResult<()> {
    if content.is_empty() {
        return Err(AppError::EmptyMessage);
    }
    let id = session_id.clone();
    run_turn(&app, &state, &session_id, on_event, |engine, sink, cancel| async move {
        engine.send(&id, content, sink.as_ref(), cancel).await
    })
    .await
}

#[tauri::command]
pub async fn regenerate(
    app: AppHandle,
    state: State<'_, AppState>,
    session_id: String,
    on_event: Channel<EngineEvent>,
) -> CommandResult<()> {
    let id = session_id.clone();
    run_turn(
        &app,
        &state,
        &session_id,
        on_event,
        |engine, sink, cancel| async move { engine.regenerate(&id, sink.as_ref(), cancel).await },
    )
    .await
}

/// Forks the chat before `message_id` and sends the edited message in the fork.
#[tauri::command]
pub async fn edit_message(
    app: AppHandle,
    state: State<'_, AppState>,
    session_id: String,
    message_id: i64,
    content: Vec<ContentPart>,
    on_event: Channel<EngineEvent>,
) -> CommandResult<Session> {
    let fork = state.engine().await?.fork(&session_id, message_id)?;
    let id = fork.id.clone();
    let sent = run_turn(&app, &state, &fork.id, on_event, |engine, sink, cancel| async move {
        engine.send(&id, content, sink.as_ref(), cancel).await
    })
    .await;
    sent.map(|()| fork)
}

#[tauri::command]
pub fn cancel_turn(state: State<'_, AppState>, session_id: String) -> CommandResult<()> {
    state.turns().cancel(&session_id);
    Ok(())
}

#[tauri::command]
pub fn resolve_approval(
    state: State<'_, AppState>,
    request_id: String,
    decision: ApprovalDecision,
) -> CommandResult<()> {
    if state.approver.resolve(&request_id, decision) {
        Ok(())
    } else {
        Err(AppError::ApprovalGone)
    }
}
