//! The start-up sweep: children left `running` by a process that ended (a crash, `kill -9`)
//! become `interrupted` with what their transcript holds, and their parent chats are told.

use hearth_protocol::Language;
use hearth_store::Store;

use super::child::{produced, report};
use crate::EngineError;

/// Marks the runs of dead processes `interrupted`, keeps their partial output and leaves a
/// message in each parent chat (in `language`); returns how many there were. Call at start-up,
/// before this process starts children.
pub fn recover_agent_runs(store: &Store, language: Language) -> Result<usize, EngineError> {
    let runs = store.mark_agent_runs_interrupted()?;
    for mut run in runs.iter().cloned() {
        run.result = produced(store, &run.session_id, false);
        store.set_agent_run_result(&run.id, &run.result)?;
        store.insert_message(&report(&run, language))?;
    }
    if !runs.is_empty() {
        tracing::info!(
            count = runs.len(),
            "marked sub-agents of an ended process interrupted"
        );
    }
    Ok(runs.len())
}
