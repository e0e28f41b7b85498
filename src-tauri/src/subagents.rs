//! Sub-agents in the window: every child's progress goes to the window as `subagent://progress`
//! (background children outlive the turn that started them), and a background child's end
//! refreshes its parent chat, where its report lands.

use std::sync::Arc;

use hearth_protocol::{SubAgentMode, SubAgentProgress, SubAgentStatus};
use tauri::{AppHandle, Manager};

use crate::events::{SESSION_APPENDED, SUBAGENT_PROGRESS};
use crate::state::AppState;

/// Sends the sub-agent runtime's progress to the window (call once, in `setup`).
pub fn start(app: &AppHandle) {
    let emitter = app.clone();
    let listener = Arc::new(move |progress: &SubAgentProgress| {
        let _ = SUBAGENT_PROGRESS.emit(&emitter, progress);
        if progress.mode == SubAgentMode::Background && progress.status != SubAgentStatus::Running {
            let _ = SESSION_APPENDED.emit(&emitter, &progress.parent_session_id);
        }
    });
    app.state::<AppState>()
        .builder
        .agents()
        .set_listener(listener);
}
