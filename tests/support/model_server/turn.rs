//! A reply resolved for one request: model name, text deltas, numbered tool calls, usage.

use hearth_protocol::Usage;
use serde_json::Value;

use super::reply::{Reply, DEFAULT_USAGE};

/// Text is cut into deltas of this many characters (more when the text is very long).
const TEXT_DELTA_CHARS: usize = 5;
/// Tool-call argument JSON is cut into fragments of this many characters (or more).
const ARGUMENT_FRAGMENT_CHARS: usize = 7;
/// Upper bound on the number of pieces one string is cut into, so huge replies stay fast.
const MAX_PIECES: usize = 256;

/// What the format modules render.
#[derive(Debug, Clone)]
pub(super) struct Turn {
    /// Sequence number of this response on the server (1-based), for message ids.
    pub(super) seq: usize,
    pub(super) model: String,
    pub(super) text: String,
    pub(super) text_deltas: Vec<String>,
    pub(super) calls: Vec<Call>,
    pub(super) usage: Usage,
}

/// One tool call with its deterministic id.
#[derive(Debug, Clone)]
pub(super) struct Call {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) arguments: Value,
    /// `arguments` serialized.
    pub(super) json: String,
    /// `json` cut into several fragments.
    pub(super) fragments: Vec<String>,
}

impl Turn {
    /// `first_call_number` is the number of this response's first tool call (`call_N`).
    pub(super) fn new(reply: &Reply, model: &str, seq: usize, first_call_number: usize) -> Turn {
        let calls = reply
            .tool_calls
            .iter()
            .enumerate()
            .map(|(i, call)| {
                let json = call.arguments.to_string();
                Call {
                    id: format!("call_{}", first_call_number + i),
                    name: call.name.clone(),
                    arguments: call.arguments.clone(),
                    fragments: chunk_chars(&json, ARGUMENT_FRAGMENT_CHARS),
                    json,
                }
            })
            .collect();
        Turn {
            seq,
            model: model.to_string(),
            text: reply.text.clone(),
            text_deltas: chunk_chars(&reply.text, TEXT_DELTA_CHARS),
            calls,
            usage: reply.usage.unwrap_or(DEFAULT_USAGE),
        }
    }

    pub(super) fn has_calls(&self) -> bool {
        !self.calls.is_empty()
    }
}

/// Cuts `s` at character boundaries into pieces of `min_chars` characters (more if that would
/// make over [`MAX_PIECES`] pieces). An empty string gives no pieces.
pub(super) fn chunk_chars(s: &str, min_chars: usize) -> Vec<String> {
    let total = s.chars().count();
    let size = min_chars.max(total.div_ceil(MAX_PIECES));
    let chars: Vec<char> = s.chars().collect();
    chars.chunks(size).map(|c| c.iter().collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_respect_characters_and_cap_the_count() {
        assert_eq!(chunk_chars("héllo wörld", 5), ["héllo", " wörl", "d"]);
        assert!(chunk_chars("", 5).is_empty());
        let long = "x".repeat(100_000);
        let pieces = chunk_chars(&long, 5);
        assert!(pieces.len() <= MAX_PIECES);
        assert_eq!(pieces.concat(), long);
    }

    #[test]
    fn calls_are_numbered_from_the_given_start() {
        let reply = Reply::tool_call("a", serde_json::json!({"path": "x.txt"}))
            .and_tool_call("b", serde_json::json!({}));
        let turn = Turn::new(&reply, "m", 1, 4);
        assert_eq!(turn.calls[0].id, "call_4");
        assert_eq!(turn.calls[1].id, "call_5");
        assert_eq!(turn.calls[0].fragments.concat(), r#"{"path":"x.txt"}"#);
        assert!(turn.calls[0].fragments.len() >= 3);
        assert_eq!(turn.usage, DEFAULT_USAGE);
    }
}
