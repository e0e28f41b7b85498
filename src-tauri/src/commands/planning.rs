//! Planning commands: the session's checklist (`todo`), the user's answer to a question the
//! model asked (`clarify`), and the form card's answer to a form a call asked for.

use hearth_ipc_macros::command;
use hearth_protocol::{AppError, FormAnswer, TodoList};
use tauri::State;

use crate::state::{AppState, CommandResult};

/// The session's checklist; `None` when it never had one.
#[command]
pub async fn todo_list(
    state: State<'_, AppState>,
    session_id: String,
) -> CommandResult<Option<TodoList>> {
    Ok(state
        .db
        .read(move |store| store.todo_list(&session_id))
        .await?)
}

/// Delivers the user's answer (an option or their own words) to a waiting question.
#[command]
pub fn answer_question(
    state: State<'_, AppState>,
    request_id: String,
    answer: String,
) -> CommandResult<()> {
    let answer = answer.trim().to_string();
    if answer.is_empty() {
        return Err(AppError::EmptyMessage);
    }
    if state.approver.answer_question(&request_id, answer) {
        Ok(())
    } else {
        Err(AppError::QuestionGone)
    }
}

/// Delivers the form card's answer (filled in, declined or cancelled) to a waiting form; an
/// answer that does not fit the form is refused with the field it is about.
#[command]
pub fn answer_form(
    state: State<'_, AppState>,
    request_id: String,
    answer: FormAnswer,
) -> CommandResult<()> {
    state.approver.answer_form(&request_id, answer)
}
