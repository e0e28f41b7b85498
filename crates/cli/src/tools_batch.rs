//! `hearth-cli tools batch FILE|-`: many tool calls in one process and one session, one JSON line
//! out per call, a failed call reported and the next one run. From stdin each line is answered
//! (and flushed) before the next is read, so another program can drive a session step by step.

use std::io::BufRead;
use std::process::ExitCode;

use anyhow::Context;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::approve::Stdin;
use crate::pipe::outln;
use crate::tool_session::{content_json, CallFlags, ToolSession};

/// One requested call: `{"name": "…", "arguments": {…}}` (arguments may also be a JSON text, as
/// `tools call` takes them, and default to `{}`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BatchCall {
    name: String,
    #[serde(default)]
    arguments: Option<Value>,
}

impl BatchCall {
    fn arguments(&self) -> String {
        match &self.arguments {
            None => "{}".to_string(),
            Some(Value::String(text)) => text.clone(),
            Some(value) => value.to_string(),
        }
    }
}

pub async fn run(file: &str, flags: CallFlags) -> anyhow::Result<ExitCode> {
    let mut failed = false;
    if file == "-" {
        let session = ToolSession::open(flags, true, Stdin::CarriesCalls).await?;
        let mut number = 0;
        while let Some(line) = read_stdin_line().await? {
            number += 1;
            if !line.trim().is_empty() {
                failed |= !run_one(&session, parse_line(number, &line)).await?;
            }
        }
        session.finish().await;
    } else {
        let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))?;
        let calls = parse_file(&text)?;
        let with_mcp = calls
            .iter()
            .any(|call| matches!(call, Ok(call) if call.name.starts_with("mcp__")));
        let session = ToolSession::open(flags, with_mcp, Stdin::Free).await?;
        for call in calls {
            failed |= !run_one(&session, call).await?;
        }
        session.finish().await;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The next line of stdin (without its line end), read only when asked for; `None` at its end.
async fn read_stdin_line() -> anyhow::Result<Option<String>> {
    tokio::task::spawn_blocking(|| {
        let mut line = String::new();
        let read = std::io::stdin().lock().read_line(&mut line)?;
        Ok::<_, std::io::Error>((read > 0).then(|| line.trim_end_matches(['\n', '\r']).to_string()))
    })
    .await?
    .context("cannot read stdin")
}

/// A call that could not be read: its position and what is wrong with it.
type Unreadable = String;

/// A JSON array of calls, or JSON lines (blank lines skipped); an entry that is not a call is
/// reported in its place, a file that is not JSON at all stops the batch before anything runs.
fn parse_file(text: &str) -> anyhow::Result<Vec<Result<BatchCall, Unreadable>>> {
    if text.trim_start().starts_with('[') {
        let entries: Vec<Value> =
            serde_json::from_str(text).context("the batch is not a JSON array")?;
        return Ok(entries
            .into_iter()
            .enumerate()
            .map(|(i, entry)| {
                serde_json::from_value(entry).map_err(|e| unreadable("entry", i + 1, &e))
            })
            .collect());
    }
    Ok(text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| parse_line(i + 1, line))
        .collect())
}

fn parse_line(number: usize, line: &str) -> Result<BatchCall, Unreadable> {
    serde_json::from_str(line).map_err(|e| unreadable("line", number, &e))
}

fn unreadable(what: &str, number: usize, error: &serde_json::Error) -> Unreadable {
    format!("{what} {number} is not a call {{\"name\": \"…\", \"arguments\": {{…}}}}: {error}")
}

/// Runs one call (or reports why it cannot be read) and prints its line; `Ok(false)` if it
/// failed.
async fn run_one(
    session: &ToolSession,
    call: Result<BatchCall, Unreadable>,
) -> anyhow::Result<bool> {
    let line = match call {
        Err(message) => json!({
            "name": Value::Null,
            "ok": false,
            "error": { "kind": "invalid_arguments", "message": message },
        }),
        Ok(call) => {
            let arguments = call.arguments();
            let result = session.call(call.name.clone(), arguments).await?;
            let mut content = content_json(&result.content);
            if result.is_error {
                // A tool error is `{"error": {...}}`: the line carries the inner object.
                if let Some(error) = content.get_mut("error").map(Value::take) {
                    content = error;
                }
                json!({ "name": call.name, "ok": false, "error": content })
            } else {
                json!({ "name": call.name, "ok": true, "result": content })
            }
        }
    };
    let ok = line["ok"] == Value::Bool(true);
    outln!("{}", serde_json::to_string(&line)?);
    Ok(ok)
}
