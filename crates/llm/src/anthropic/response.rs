//! Parsing Messages API stream events: `message_start`, content blocks (text and `tool_use`),
//! deltas, `message_delta`, `message_stop`, `ping` and `error`.

use std::collections::HashMap;

use hearth_protocol::{StopReason, Usage};
use serde_json::Value;

use crate::stream::WireParser;
use crate::wire::{new_call_id, parse_record, settle_stop, stream_error};
use crate::{LlmError, StreamEvent};

/// Turns Messages API events into stream events. Tool calls are numbered 0, 1, … in the order
/// their blocks start, whatever the block indexes.
pub(crate) struct EventParser {
    api_key: Option<String>,
    tool_blocks: HashMap<u64, usize>,
    usage: Usage,
    stop: Option<StopReason>,
}

impl EventParser {
    pub(crate) fn new(api_key: Option<&str>) -> EventParser {
        EventParser {
            api_key: api_key.map(str::to_string),
            tool_blocks: HashMap::new(),
            usage: Usage::default(),
            stop: None,
        }
    }

    /// Reads the token counts an event carries; input counts include cache reads and writes.
    fn read_usage(&mut self, usage: &Value) {
        let count = |key: &str| usage.get(key).and_then(Value::as_u64);
        let input = [
            "input_tokens",
            "cache_creation_input_tokens",
            "cache_read_input_tokens",
        ]
        .iter()
        .filter_map(|k| count(k))
        .reduce(|a, b| a + b);
        if let Some(input) = input {
            self.usage.input_tokens = input;
        }
        if let Some(output) = count("output_tokens") {
            self.usage.output_tokens = output;
        }
    }

    fn block_start(&mut self, event: &Value, out: &mut Vec<StreamEvent>) {
        let block = &event["content_block"];
        match block["type"].as_str() {
            Some("text") => push_text(block["text"].as_str(), out),
            Some("tool_use") => {
                let index = self.tool_blocks.len();
                self.tool_blocks
                    .insert(event["index"].as_u64().unwrap_or_default(), index);
                let id = block["id"]
                    .as_str()
                    .map_or_else(new_call_id, str::to_string);
                let name = block["name"].as_str().unwrap_or_default().to_string();
                out.push(StreamEvent::ToolCallStart { index, id, name });
                if let Some(input) = block["input"].as_object().filter(|i| !i.is_empty()) {
                    let arguments = Value::Object(input.clone()).to_string();
                    out.push(StreamEvent::ToolCallDelta { index, arguments });
                }
            }
            _ => {}
        }
    }

    fn block_delta(&mut self, event: &Value, out: &mut Vec<StreamEvent>) {
        let delta = &event["delta"];
        match delta["type"].as_str() {
            Some("text_delta") => push_text(delta["text"].as_str(), out),
            Some("input_json_delta") => {
                let block = event["index"].as_u64().unwrap_or_default();
                let partial = delta["partial_json"].as_str().unwrap_or_default();
                if let (Some(&index), false) = (self.tool_blocks.get(&block), partial.is_empty()) {
                    out.push(StreamEvent::ToolCallDelta {
                        index,
                        arguments: partial.to_string(),
                    });
                }
            }
            _ => {}
        }
    }
}

fn push_text(text: Option<&str>, out: &mut Vec<StreamEvent>) {
    if let Some(text) = text.filter(|t| !t.is_empty()) {
        out.push(StreamEvent::TextDelta(text.to_string()));
    }
}

fn stop_reason(reason: &str) -> StopReason {
    match reason {
        "end_turn" | "stop_sequence" => StopReason::EndTurn,
        "tool_use" => StopReason::ToolUse,
        "max_tokens" => StopReason::MaxTokens,
        "refusal" => StopReason::ContentFilter,
        other => StopReason::Other(other.to_string()),
    }
}

impl WireParser for EventParser {
    fn record(&mut self, data: &str, out: &mut Vec<StreamEvent>) -> Result<(), LlmError> {
        let event: Value = parse_record(data)?;
        match event["type"].as_str() {
            Some("message_start") => self.read_usage(&event["message"]["usage"]),
            Some("content_block_start") => self.block_start(&event, out),
            Some("content_block_delta") => self.block_delta(&event, out),
            Some("message_delta") => {
                if let Some(reason) = event["delta"]["stop_reason"].as_str() {
                    self.stop = Some(stop_reason(reason));
                }
                self.read_usage(&event["usage"]);
            }
            Some("message_stop") => {
                out.push(StreamEvent::Usage(self.usage));
                let stop = self.stop.take().unwrap_or(StopReason::EndTurn);
                let stop_reason = settle_stop(stop, !self.tool_blocks.is_empty());
                out.push(StreamEvent::Done { stop_reason });
            }
            Some("error") => return Err(stream_error(&event["error"], self.api_key.as_deref())),
            _ => {}
        }
        Ok(())
    }

    /// The stream must end with `message_stop`; anything else is an interrupted response.
    fn finish(&mut self, _done_marker: bool, _out: &mut Vec<StreamEvent>) -> Result<(), LlmError> {
        Ok(())
    }
}

#[cfg(test)]
#[path = "response_tests.rs"]
mod tests;
