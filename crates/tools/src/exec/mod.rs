//! Execution tools: `exec` (and PicoBot's `bash`), `execute_code`, `process` and
//! `pty`, with the pieces they share: the scrubbed child environment, workspace-bound working
//! folders, process-group killing, bounded output capture and the model-facing output fit.

use crate::error::ToolError;

mod code;
mod env;
mod kill;
mod process;
mod pty;
mod ring;
mod run;
mod sandboxed;
mod shell;
mod skill_run;
mod streams;
mod workdir;

pub use code::{ExecuteCode, ExecuteCodeArgs, Language};
pub use env::ENV_ALLOW_LIST;
pub(crate) use process::Table as ProcessTable;
pub use process::{Process, ProcessAction, ProcessArgs};
pub use pty::{Pty, PtyAction, PtyArgs, TerminalFeed, Terminals};
pub use shell::{bash, BashArgs, Exec, ExecArgs};
pub(crate) use skill_run::{run_script, Script};
pub use skill_run::{SkillRun, SkillRunArgs};

/// Locks a table or buffer mutex; a panic elsewhere while holding it leaves data that is still
/// consistent for these uses (plain buffers and status fields), so poisoning is ignored.
pub(crate) fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The value of an argument an action needs, or `invalid_arguments` naming it.
pub(crate) fn required<T>(value: Option<T>, field: &str, action: &str) -> Result<T, ToolError> {
    value.ok_or_else(|| ToolError::invalid(field, format!("`{field}` is required for `{action}`")))
}

/// `not_found` for an unknown `id` in `field`, naming the `known` ones (`what` is e.g.
/// "process", `listing` e.g. "known processes").
pub(crate) fn unknown_id(
    what: &str,
    listing: &str,
    id: &str,
    known: &[&str],
    field: &str,
) -> ToolError {
    let known = if known.is_empty() {
        "none".to_string()
    } else {
        known.join(", ")
    };
    ToolError {
        kind: crate::error::ErrorKind::NotFound,
        message: format!("no {what} {id}; {listing}: {known}"),
        field: Some(field.to_string()),
    }
}
