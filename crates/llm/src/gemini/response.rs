//! Parsing Gemini stream chunks: text parts, whole `functionCall` parts with their thought
//! signatures, `finishReason`, `usageMetadata`, prompt blocks and error objects.

use hearth_protocol::{StopReason, Usage};
use serde_json::Value;

use crate::stream::WireParser;
use crate::wire::{arguments_text, new_call_id, parse_record, settle_stop, stream_error};
use crate::{LlmError, StreamEvent};

/// Turns `GenerateContentResponse` chunks into stream events. The response is complete once a
/// chunk carries a `finishReason` (Gemini sends no separate terminator).
pub(crate) struct ChunkParser {
    api_key: Option<String>,
    calls: usize,
    usage: Option<Usage>,
    stop: Option<StopReason>,
}

impl ChunkParser {
    pub(crate) fn new(api_key: Option<&str>) -> ChunkParser {
        ChunkParser {
            api_key: api_key.map(str::to_string),
            calls: 0,
            usage: None,
            stop: None,
        }
    }

    fn part(&mut self, part: &Value, out: &mut Vec<StreamEvent>) {
        if let Some(call) = part.get("functionCall") {
            let index = self.calls;
            self.calls += 1;
            let id = call["id"].as_str().filter(|id| !id.is_empty());
            let id = id.map_or_else(new_call_id, str::to_string);
            let name = call["name"].as_str().unwrap_or_default().to_string();
            out.push(StreamEvent::ToolCallStart { index, id, name });
            let arguments = arguments_text(&call["args"]);
            out.push(StreamEvent::ToolCallDelta { index, arguments });
            if let Some(signature) = part["thoughtSignature"].as_str().filter(|s| !s.is_empty()) {
                let signature = signature.to_string();
                out.push(StreamEvent::ToolCallSignature { index, signature });
            }
        } else if let Some(text) = part["text"].as_str().filter(|t| !t.is_empty()) {
            if part["thought"] != Value::Bool(true) {
                out.push(StreamEvent::TextDelta(text.to_string()));
            }
        }
    }
}

fn stop_reason(reason: &str) -> StopReason {
    match reason {
        "STOP" => StopReason::EndTurn,
        "MAX_TOKENS" => StopReason::MaxTokens,
        "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY" => {
            StopReason::ContentFilter
        }
        other => StopReason::Other(other.to_string()),
    }
}

impl WireParser for ChunkParser {
    fn record(&mut self, data: &str, out: &mut Vec<StreamEvent>) -> Result<(), LlmError> {
        let chunk: Value = parse_record(data)?;
        if let Some(error) = chunk.get("error") {
            return Err(stream_error(error, self.api_key.as_deref()));
        }
        if let Some(usage) = chunk.get("usageMetadata") {
            let count = |key: &str| usage[key].as_u64().unwrap_or_default();
            self.usage = Some(Usage {
                input_tokens: count("promptTokenCount"),
                output_tokens: count("candidatesTokenCount") + count("thoughtsTokenCount"),
            });
        }
        if chunk["promptFeedback"]["blockReason"].is_string() {
            self.stop = Some(StopReason::ContentFilter);
        }
        if let Some(candidate) = chunk["candidates"].as_array().and_then(|c| c.first()) {
            for part in candidate["content"]["parts"]
                .as_array()
                .into_iter()
                .flatten()
            {
                self.part(part, out);
            }
            if let Some(reason) = candidate["finishReason"].as_str() {
                self.stop = Some(stop_reason(reason));
            }
        }
        Ok(())
    }

    fn finish(&mut self, _done_marker: bool, out: &mut Vec<StreamEvent>) -> Result<(), LlmError> {
        let Some(stop) = self.stop.take() else {
            return Ok(());
        };
        if let Some(usage) = self.usage {
            out.push(StreamEvent::Usage(usage));
        }
        out.push(StreamEvent::Done {
            stop_reason: settle_stop(stop, self.calls > 0),
        });
        Ok(())
    }
}

#[cfg(test)]
#[path = "response_tests.rs"]
mod tests;
