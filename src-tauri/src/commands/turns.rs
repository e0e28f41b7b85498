//! Turn commands: send, regenerate, edit-and-fork, cancel, answer an approval. Progress streams
//! over a `Channel<EngineEvent>` (text deltas merged per frame, see [`crate::stream`]); a turn that ends while the window is hidden or unfocused is
//! announced with an OS notification.

use hearth_core::Notice;
use hearth_engine::{EventSink, SkillRun, TurnSummary};
use hearth_ipc_macros::command;
use hearth_protocol::{AppError, ApprovalDecision, ContentPart, EngineEvent, Session, Text};
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, State};
use tokio_util::sync::CancellationToken;

use crate::events::SESSION_TITLED;
use crate::state::{AppState, CommandResult};

/// Runs a turn (`turn` builds its engine, which registers it with the app's running turns,
/// owners of its cancel token), then notifies if nobody was watching.
async fn run_turn<F, Fut>(
    app: &AppHandle,
    state: &AppState,
    session_id: &str,
    on_event: Channel<EngineEvent>,
    turn: F,
) -> CommandResult<()>
where
    F: FnOnce(Box<dyn Fn(EngineEvent) + Send + Sync>, CancellationToken) -> Fut,
    Fut: std::future::Future<Output = Result<TurnSummary, AppError>>,
{
    let cancel = CancellationToken::new();
    let (events, received) = tokio::sync::mpsc::unbounded_channel();
    let forwarder = tauri::async_runtime::spawn(crate::stream::forward(received, move |event| {
        let _ = on_event.send(event);
    }));
    let sink = Box::new(move |event: EngineEvent| {
        let _ = events.send(event);
    });
    // The turn's future owns the sink: once it is done the forwarder drains and ends.
    let outcome = turn(sink, cancel).await;
    let _ = forwarder.await;
    notify_if_unwatched(app, state, session_id, outcome.as_ref().err()).await;
    outcome.map(|_| ())
}

async fn notify_if_unwatched(
    app: &AppHandle,
    state: &AppState,
    session_id: &str,
    error: Option<&AppError>,
) {
    let watched = app
        .get_webview_window("main")
        .is_some_and(|w| w.is_visible().unwrap_or(false) && w.is_focused().unwrap_or(false));
    if watched {
        return;
    }
    let id = session_id.to_string();
    let title = state
        .db
        .read(move |store| store.get_session(&id))
        .await
        .ok()
        .flatten()
        .map(|s| s.title)
        .unwrap_or_else(|| "Hearth".to_string());
    let language = state.settings().language;
    let body = match error {
        None => Text::ReplyFinished.in_language(language),
        Some(e) => Text::ReplyFailed {
            error: &e.in_language(language),
        }
        .in_language(language),
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

/// Stores the user's message first, then builds the engine (a skill run's when `skill` is
/// given) and answers it: a missing provider or key fails the turn on the stored message
/// (reported once, as `turn_failed`), and Retry regenerates from it.
async fn commit_and_answer(
    state: &AppState,
    session_id: &str,
    content: Vec<ContentPart>,
    skill: Option<SkillRun>,
    sink: &EventSink,
    cancel: CancellationToken,
) -> Result<TurnSummary, AppError> {
    let begun = state
        .turns()
        .commit(session_id, content, cancel.clone())
        .await?;
    let engine = match skill {
        Some(run) => state.skill_engine(run).await,
        None => state.engine().await,
    };
    match engine {
        Ok(engine) => Ok(engine.answer(begun, sink, cancel).await?),
        Err(error) => {
            sink(EngineEvent::TurnStarted {
                session_id: session_id.to_string(),
                user_message_id: begun.user_message_id(),
            });
            sink(EngineEvent::TurnFailed {
                session_id: session_id.to_string(),
                error: error.clone(),
            });
            Err(error)
        }
    }
}

/// Runs [`commit_and_answer`] as a turn of `session_id`; after a chat's first reply, its title
/// is written by the model in the background (see [`title_in_background`]).
pub(crate) async fn send_turn(
    app: &AppHandle,
    state: &AppState,
    session_id: &str,
    content: Vec<ContentPart>,
    skill: Option<SkillRun>,
    on_event: Channel<EngineEvent>,
) -> CommandResult<()> {
    run_turn(
        app,
        state,
        session_id,
        on_event,
        |sink, cancel| async move {
            commit_and_answer(state, session_id, content, skill, sink.as_ref(), cancel).await
        },
    )
    .await?;
    title_in_background(app, session_id);
    Ok(())
}

/// Asks the model for the title of a chat that just got its first reply, without holding the
/// turn (the next message can be sent meanwhile); `write_title` does nothing for later replies
/// or a title the user chose.
fn title_in_background(app: &AppHandle, session_id: &str) {
    let (app, session_id) = (app.clone(), session_id.to_string());
    let tasks = app.state::<AppState>().tasks.clone();
    tasks.spawn(async move {
        let state = app.state::<AppState>();
        let Ok(engine) = state.engine().await else {
            return;
        };
        match engine.write_title(&session_id).await {
            Ok(Some(_)) => {
                let _ = SESSION_TITLED.emit(&app, &session_id);
            }
            Ok(None) => {}
            Err(error) => tracing::warn!(%error, session = %session_id, "no model-written title"),
        }
    });
}

#[command]
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
    send_turn(&app, &state, &session_id, content, None, on_event).await
}

#[command]
pub async fn regenerate(
    app: AppHandle,
    state: State<'_, AppState>,
    session_id: String,
    on_event: Channel<EngineEvent>,
) -> CommandResult<()> {
    let (id, shared) = (session_id.clone(), state.inner());
    run_turn(
        &app,
        &state,
        &session_id,
        on_event,
        |sink, cancel| async move {
            let engine = shared.engine().await?;
            Ok(engine.regenerate(&id, sink.as_ref(), cancel).await?)
        },
    )
    .await
}

/// Forks the chat before `message_id` and sends the edited message in the fork (stored before a
/// provider is looked at, like a sent one). A message that ran a skill (a skill part kept beside
/// the edited text) runs it again, as the skill is now.
#[command]
pub async fn edit_message(
    app: AppHandle,
    state: State<'_, AppState>,
    session_id: String,
    message_id: i64,
    content: Vec<ContentPart>,
    on_event: Channel<EngineEvent>,
) -> CommandResult<Session> {
    let language = state.settings().language;
    let id = session_id.clone();
    let source = state
        .db
        .read(move |store| store.get_session(&id))
        .await?
        .ok_or_else(|| AppError::UnknownSession {
            session_id: session_id.clone(),
        })?;
    let title = Text::EditedTitle {
        title: &source.title,
    }
    .in_language(language);
    let skill = match skill_of(&content) {
        Some(name) => Some(super::skills::load_run(&state, &session_id, name).await?),
        None => None,
    };
    let content = match &skill {
        Some(run) => run.content(content),
        None => content,
    };
    let fork = state.builder.fork(&session_id, message_id, &title).await?;
    let sent = send_turn(&app, &state, &fork.id, content, skill, on_event).await;
    sent.map(|()| fork)
}

/// The name of the skill a message's content runs, if any.
fn skill_of(content: &[ContentPart]) -> Option<String> {
    content.iter().find_map(|part| match part {
        ContentPart::Skill { name, .. } => Some(name.clone()),
        _ => None,
    })
}

#[command]
pub fn cancel_turn(state: State<'_, AppState>, session_id: String) -> CommandResult<()> {
    state.turns().cancel(&session_id);
    Ok(())
}

/// Cancels a sub-agent: at once when it runs in the app, else by asking the process running it
/// (`hearth-cli`) through the store.
#[command]
pub async fn cancel_subagent(state: State<'_, AppState>, run_id: String) -> CommandResult<()> {
    let agents = state.builder.agents();
    if agents
        .cancel(&run_id)
        .await
        .map_err(AppError::from)?
        .is_none()
    {
        state
            .db
            .write(move |store| store.request_agent_run_cancel(&run_id))
            .await?;
    }
    Ok(())
}

/// How many background tasks the panel lists (newest first).
const BACKGROUND_LISTED: usize = 20;

/// The newest background sub-agents of every chat, for the background-tasks panel.
#[command]
pub async fn list_background_tasks(
    state: State<'_, AppState>,
) -> CommandResult<Vec<hearth_protocol::SubAgentRun>> {
    let runs = state
        .db
        .read(|store| store.agent_runs(None, BACKGROUND_LISTED * 4))
        .await?;
    Ok(runs
        .into_iter()
        .filter(|run| run.mode == hearth_protocol::SubAgentMode::Background)
        .take(BACKGROUND_LISTED)
        .collect())
}

#[command]
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
