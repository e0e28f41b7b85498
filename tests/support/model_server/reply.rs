//! The scripted reply: builder used by tests and the serde form read by the standalone binary.

use hearth_protocol::Usage;
use serde::Deserialize;
use serde_json::Value;

/// Usage reported when a reply does not set its own with [`Reply::with_usage`].
pub const DEFAULT_USAGE: Usage = Usage {
    input_tokens: 10,
    output_tokens: 5,
};

/// One scripted model response, served to exactly one model request.
///
/// The serde form (used by the `scripted-model-server` script file) has the fields
/// `text`, `tool_calls: [{name, arguments}]`, `usage: {input_tokens, output_tokens}`,
/// `delay_ms`, `wait_ms`, `at_once`, `status`, `body`, `retry_after`, `disconnect_after`, `malformed_after`;
/// all optional, unknown fields rejected.
///
/// Event counts (`disconnect_after`, `malformed_after`) count SSE events (pings included) or
/// NDJSON lines; a non-streamed response is a single event.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Reply {
    pub(super) text: String,
    pub(super) tool_calls: Vec<ScriptedCall>,
    pub(super) usage: Option<Usage>,
    pub(super) delay_ms: u64,
    pub(super) wait_ms: u64,
    pub(super) at_once: bool,
    pub(super) status: Option<u16>,
    pub(super) body: String,
    pub(super) retry_after: Option<u64>,
    pub(super) disconnect_after: Option<usize>,
    pub(super) malformed_after: Option<usize>,
}

/// A tool call the scripted model makes.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedCall {
    pub(super) name: String,
    #[serde(default = "empty_object")]
    pub(super) arguments: Value,
}

fn empty_object() -> Value {
    Value::Object(serde_json::Map::new())
}

impl Reply {
    /// A text answer, streamed as ~5-character deltas (larger for very long texts, at most
    /// ~256 deltas per response).
    pub fn text(s: &str) -> Reply {
        Reply {
            text: s.to_string(),
            ..Reply::default()
        }
    }

    /// A response made of one tool call; chain [`Reply::and_tool_call`] for more.
    pub fn tool_call(name: &str, arguments: Value) -> Reply {
        Reply::default().and_tool_call(name, arguments)
    }

    /// Adds another tool call to the same response.
    pub fn and_tool_call(mut self, name: &str, arguments: Value) -> Reply {
        self.tool_calls.push(ScriptedCall {
            name: name.to_string(),
            arguments,
        });
        self
    }

    /// Sets the text streamed before any tool calls.
    pub fn with_text(mut self, s: &str) -> Reply {
        self.text = s.to_string();
        self
    }

    /// Sets the token usage reported (otherwise [`DEFAULT_USAGE`]).
    pub fn with_usage(mut self, input: u64, output: u64) -> Reply {
        self.usage = Some(Usage {
            input_tokens: input,
            output_tokens: output,
        });
        self
    }

    /// Pauses this long between streamed events (not before the first one).
    pub fn with_chunk_delay(mut self, ms: u64) -> Reply {
        self.delay_ms = ms;
        self
    }

    /// Waits this long before answering at all (a slow model's time to its response).
    pub fn after(mut self, ms: u64) -> Reply {
        self.wait_ms = ms;
        self
    }

    /// Sends the whole stream in one write: no event cut across reads, no pauses. For
    /// benchmarks, whose model time should be the engine's wait for an instant model, not the
    /// cost of many small reads.
    pub fn at_once(mut self) -> Reply {
        self.at_once = true;
        self
    }

    /// A plain HTTP error: this status and body (sent as JSON when it parses as JSON).
    pub fn status(code: u16, body: &str) -> Reply {
        Reply {
            status: Some(code),
            body: body.to_string(),
            ..Reply::default()
        }
    }

    /// Adds a `Retry-After: secs` header to the response.
    pub fn with_retry_after(mut self, secs: u64) -> Reply {
        self.retry_after = Some(secs);
        self
    }

    /// Sends this many complete events, then aborts the connection (the chunked body is never
    /// terminated, so the client sees a truncated transfer, not a clean end).
    pub fn disconnect_after(mut self, events: usize) -> Reply {
        self.disconnect_after = Some(events);
        self
    }

    /// Sends this many complete events, then one event whose data is invalid JSON, then the
    /// rest of the response as usual.
    pub fn malformed_after(mut self, events: usize) -> Reply {
        self.malformed_after = Some(events);
        self
    }
}
