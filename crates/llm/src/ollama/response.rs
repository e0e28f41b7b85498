//! Parsing Ollama's NDJSON chat stream: content deltas, whole tool calls, and the final
//! `done: true` line with token counts and `done_reason`.

use hearth_protocol::{StopReason, Usage};
use serde::Deserialize;
use serde_json::Value;

use crate::stream::WireParser;
use crate::wire::{arguments_text, new_call_id, parse_record, settle_stop, stream_error};
use crate::{LlmError, StreamEvent};

#[derive(Deserialize)]
struct Line {
    #[serde(default)]
    message: Option<LineMessage>,
    #[serde(default)]
    done: bool,
    #[serde(default)]
    done_reason: Option<String>,
    #[serde(default)]
    prompt_eval_count: Option<u64>,
    #[serde(default)]
    eval_count: Option<u64>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct LineMessage {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    tool_calls: Option<Vec<WireCall>>,
}

#[derive(Deserialize)]
struct WireCall {
    #[serde(default)]
    id: Option<String>,
    function: WireFunction,
}

#[derive(Deserialize)]
struct WireFunction {
    name: String,
    #[serde(default)]
    arguments: Value,
}

/// Turns Ollama chat lines into stream events; calls arrive whole and get generated ids.
pub(crate) struct LineParser {
    api_key: Option<String>,
    calls: usize,
}

impl LineParser {
    pub(crate) fn new(api_key: Option<&str>) -> LineParser {
        LineParser {
            api_key: api_key.map(str::to_string),
            calls: 0,
        }
    }
}

fn stop_reason(reason: Option<&str>) -> StopReason {
    match reason {
        None | Some("stop") | Some("") => StopReason::EndTurn,
        Some("length") => StopReason::MaxTokens,
        Some(other) => StopReason::Other(other.to_string()),
    }
}

impl WireParser for LineParser {
    fn record(&mut self, data: &str, out: &mut Vec<StreamEvent>) -> Result<(), LlmError> {
        let line: Line = parse_record(data)?;
        if let Some(error) = line.error {
            return Err(stream_error(&error, self.api_key.as_deref()));
        }
        if let Some(message) = line.message {
            if let Some(text) = message.content.filter(|t| !t.is_empty()) {
                out.push(StreamEvent::TextDelta(text));
            }
            for call in message.tool_calls.unwrap_or_default() {
                let index = self.calls;
                self.calls += 1;
                let id = call
                    .id
                    .filter(|id| !id.is_empty())
                    .unwrap_or_else(new_call_id);
                out.push(StreamEvent::ToolCallStart {
                    index,
                    id,
                    name: call.function.name,
                });
                let arguments = arguments_text(&call.function.arguments);
                out.push(StreamEvent::ToolCallDelta { index, arguments });
            }
        }
        if line.done {
            out.push(StreamEvent::Usage(Usage {
                input_tokens: line.prompt_eval_count.unwrap_or_default(),
                output_tokens: line.eval_count.unwrap_or_default(),
            }));
            let stop = stop_reason(line.done_reason.as_deref());
            out.push(StreamEvent::Done {
                stop_reason: settle_stop(stop, self.calls > 0),
            });
        }
        Ok(())
    }

    /// The stream must end with a `done: true` line; anything else is an interrupted response.
    fn finish(&mut self, _done_marker: bool, _out: &mut Vec<StreamEvent>) -> Result<(), LlmError> {
        Ok(())
    }
}

#[cfg(test)]
#[path = "response_tests.rs"]
mod tests;
