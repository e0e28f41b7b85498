//! The view of a finished command (`exec`), code run (`execute_code`) or skill script
//! (`skill_run`, a skill's declared tool): what ran, how it ended, and its output.

use hearth_protocol::ToolView;
use serde_json::{Map, Value};

use super::read::{flag, non_empty, string};

/// A run's view from its result (`exit_code`, `stdout`, `stderr`, `timed_out`, `duration_ms`,
/// `signal`, `truncated`; `language`, `script` and `skill` where the tool adds them) and the
/// call's `command` or script `args`; none when the result is not a finished run.
pub(super) fn command_view(
    result: &Map<String, Value>,
    args: &Map<String, Value>,
) -> Option<ToolView> {
    let exit_code = result.get("exit_code")?;
    let command = match (string(result, "script"), non_empty(args, "command")) {
        (Some(script), _) => with_arguments(script, args),
        (None, Some(command)) => command,
        (None, None) => non_empty(result, "language").unwrap_or_default(),
    };
    Some(ToolView::CommandRun {
        command,
        skill: non_empty(result, "skill"),
        exit_code: exit_code.as_i64().and_then(|code| i32::try_from(code).ok()),
        signal: result
            .get("signal")
            .and_then(Value::as_i64)
            .and_then(|signal| i32::try_from(signal).ok()),
        timed_out: flag(result, "timed_out"),
        duration_ms: result
            .get("duration_ms")
            .and_then(Value::as_u64)
            .unwrap_or(0),
        stdout: string(result, "stdout").unwrap_or_default().to_string(),
        stderr: string(result, "stderr").unwrap_or_default().to_string(),
        truncated: flag(result, "truncated"),
    })
}

/// `script` followed by the call's string `args`, as a command line shows them.
fn with_arguments(script: &str, args: &Map<String, Value>) -> String {
    let words = args
        .get("args")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    std::iter::once(script.to_string())
        .chain(words.filter_map(Value::as_str).map(quoted))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `word` as a shell reads it back: as it is when it is plain, else in single quotes.
fn quoted(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}
