//! The model's text split, as it streams, into what the user reads and the tool calls it makes:
//! Hermes/Qwen `<tool_call>{…}</tool_call>`, Mistral `[TOOL_CALLS][…]`, and a reply that is
//! only a `{"name", "arguments"|"parameters"}` object (Llama 3.x). Nothing is lost: text that
//! looked like a call but does not parse comes out as text.

use serde_json::Value;

use crate::prompt::{CALL_CLOSER, CALL_TRIGGER};

/// Mistral's call marker.
const MISTRAL_CALLS: &str = "[TOOL_CALLS]";

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece {
    Text(String),
    /// A call: the tool's name and its arguments as JSON text.
    Call {
        name: String,
        arguments: String,
    },
}

/// Splits streamed text into [`Piece`]s.
pub(crate) struct CallSplitter {
    /// Tool names offered: a bare JSON reply is a call only when it names one.
    tools: Vec<String>,
    /// Text not yet given out (a possible start of a call, or a call being written).
    held: String,
    /// Inside `<tool_call>`: the call's text so far.
    in_call: bool,
    /// The reply so far began like a bare JSON call or Mistral's marker: held to the end.
    whole_reply: bool,
    /// Nothing but whitespace has been seen yet.
    at_start: bool,
}

impl CallSplitter {
    pub(crate) fn new(tools: Vec<String>) -> CallSplitter {
        CallSplitter {
            tools,
            held: String::new(),
            in_call: false,
            whole_reply: false,
            at_start: true,
        }
    }

    /// Takes the next text, returns what is decided.
    pub(crate) fn push(&mut self, text: &str) -> Vec<Piece> {
        self.held.push_str(text);
        if self.at_start && !self.tools.is_empty() {
            let start = self.held.trim_start();
            if start.is_empty() {
                return Vec::new();
            }
            self.at_start = false;
            if start.starts_with('{') || start.starts_with(MISTRAL_CALLS) {
                self.whole_reply = true;
            } else if MISTRAL_CALLS.starts_with(start) {
                self.at_start = true;
                return Vec::new();
            }
        }
        if self.whole_reply {
            return Vec::new();
        }
        let mut out = Vec::new();
        loop {
            if self.in_call {
                let Some(end) = self.held.find(CALL_CLOSER) else {
                    break;
                };
                let body: String = self.held.drain(..end + CALL_CLOSER.len()).collect();
                out.push(self.call_or_text(&body[..end], &format!("{CALL_TRIGGER}{body}")));
                self.in_call = false;
            } else if let Some(start) = self.held.find(CALL_TRIGGER) {
                let before: String = self.held.drain(..start + CALL_TRIGGER.len()).collect();
                push_text(&mut out, &before[..start]);
                self.in_call = true;
            } else {
                // Keep back a tail that may be the start of the trigger.
                let keep = partial_suffix(&self.held, CALL_TRIGGER);
                let ready: String = self.held.drain(..self.held.len() - keep).collect();
                push_text(&mut out, &ready);
                break;
            }
        }
        out
    }

    /// The reply ended: what is still held, as calls where it parses, else as text.
    pub(crate) fn finish(&mut self) -> Vec<Piece> {
        let held = std::mem::take(&mut self.held);
        let mut out = Vec::new();
        if self.in_call {
            // A call cut off (no closer): a call if its JSON is whole, else the text.
            out.push(self.call_or_text(&held, &format!("{CALL_TRIGGER}{held}")));
        } else if self.whole_reply {
            let body = held
                .trim()
                .strip_prefix(MISTRAL_CALLS)
                .unwrap_or(held.trim());
            match self.bare_calls(body) {
                Some(calls) => out.extend(calls),
                None => push_text(&mut out, &held),
            }
        } else {
            push_text(&mut out, &held);
        }
        out
    }

    fn call_or_text(&self, body: &str, whole: &str) -> Piece {
        serde_json::from_str::<Value>(body.trim())
            .ok()
            .and_then(|value| call_of(&value))
            .unwrap_or_else(|| Piece::Text(whole.to_string()))
    }

    /// A bare JSON call, or an array of them, each naming an offered tool.
    fn bare_calls(&self, body: &str) -> Option<Vec<Piece>> {
        let value: Value = serde_json::from_str(body).ok()?;
        let values = match value {
            Value::Array(values) => values,
            one => vec![one],
        };
        let calls: Option<Vec<Piece>> = values.iter().map(call_of).collect();
        let calls = calls?;
        let offered = calls.iter().all(|call| match call {
            Piece::Call { name, .. } => self.tools.contains(name),
            Piece::Text(_) => false,
        });
        (offered && !calls.is_empty()).then_some(calls)
    }
}

/// `{"name", "arguments"|"parameters"}` as a call.
fn call_of(value: &Value) -> Option<Piece> {
    let name = value.get("name")?.as_str()?.to_string();
    let arguments = match value.get("arguments").or_else(|| value.get("parameters")) {
        Some(Value::String(text)) => text.clone(),
        Some(arguments) => arguments.to_string(),
        None => "{}".to_string(),
    };
    Some(Piece::Call { name, arguments })
}

fn push_text(out: &mut Vec<Piece>, text: &str) {
    if text.is_empty() {
        return;
    }
    if let Some(Piece::Text(last)) = out.last_mut() {
        last.push_str(text);
    } else {
        out.push(Piece::Text(text.to_string()));
    }
}

/// The length of the longest end of `text` that `marker` starts with.
fn partial_suffix(text: &str, marker: &str) -> usize {
    (1..marker.len().min(text.len() + 1))
        .rev()
        .find(|&n| {
            text.is_char_boundary(text.len() - n) && marker.starts_with(&text[text.len() - n..])
        })
        .unwrap_or(0)
}

#[cfg(test)]
#[path = "tool_calls_tests.rs"]
mod tests;
