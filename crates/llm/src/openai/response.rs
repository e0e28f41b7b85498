//! Parsing streamed chat-completion chunks: text deltas, indexed tool-call fragments, usage,
//! `finish_reason` and in-stream errors.

use std::collections::BTreeMap;

use hearth_protocol::{StopReason, Usage};
use serde::Deserialize;
use serde_json::Value;

use crate::stream::WireParser;
use crate::wire::{new_call_id, parse_record, settle_stop, stream_error};
use crate::{LlmError, StreamEvent};

#[derive(Deserialize)]
struct Chunk {
    #[serde(default)]
    choices: Option<Vec<Choice>>,
    #[serde(default)]
    usage: Option<WireUsage>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct Choice {
    #[serde(default)]
    index: u64,
    #[serde(default)]
    delta: Option<Delta>,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct Delta {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    tool_calls: Option<Vec<ToolFragment>>,
}

#[derive(Deserialize)]
struct ToolFragment {
    #[serde(default)]
    index: Option<usize>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    function: Option<FunctionFragment>,
}

#[derive(Deserialize)]
struct FunctionFragment {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<String>,
}

#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: Option<u64>,
    #[serde(default)]
    completion_tokens: Option<u64>,
}

/// A call being streamed: announced once its name is known, arguments buffered until then.
#[derive(Default)]
struct PendingCall {
    id: Option<String>,
    name: Option<String>,
    started: bool,
    buffered: String,
}

/// Turns chat-completion chunks into stream events.
pub(crate) struct ChunkParser {
    api_key: Option<String>,
    calls: BTreeMap<usize, PendingCall>,
    last_index: Option<usize>,
    stop: Option<StopReason>,
    usage: Option<Usage>,
}

impl ChunkParser {
    pub(crate) fn new(api_key: Option<&str>) -> ChunkParser {
        ChunkParser {
            api_key: api_key.map(str::to_string),
            calls: BTreeMap::new(),
            last_index: None,
            stop: None,
            usage: None,
        }
    }

    fn fragment(&mut self, fragment: ToolFragment, out: &mut Vec<StreamEvent>) {
        let id = fragment.id.filter(|id| !id.is_empty());
        let index = fragment
            .index
            .unwrap_or_else(|| self.guess_index(id.as_deref()));
        self.last_index = Some(index);
        let call = self.calls.entry(index).or_default();
        if call.id.is_none() {
            call.id = id;
        }
        let (name, arguments) = match fragment.function {
            Some(f) => (
                f.name.filter(|n| !n.is_empty()),
                f.arguments.unwrap_or_default(),
            ),
            None => (None, String::new()),
        };
        if call.name.is_none() {
            call.name = name;
        }
        if call.started {
            if !arguments.is_empty() {
                out.push(StreamEvent::ToolCallDelta { index, arguments });
            }
            return;
        }
        call.buffered.push_str(&arguments);
        if call.name.is_some() {
            start(index, call, out);
        }
    }

    /// Servers that omit `index` (some compatibility layers): a new id starts a new call.
    fn guess_index(&self, id: Option<&str>) -> usize {
        let next = self.calls.keys().next_back().map_or(0, |last| last + 1);
        match (self.last_index, id) {
            (Some(last), None) => last,
            (Some(last), Some(id))
                if self.calls.get(&last).and_then(|c| c.id.as_deref()) == Some(id) =>
            {
                last
            }
            _ => next,
        }
    }
}

fn start(index: usize, call: &mut PendingCall, out: &mut Vec<StreamEvent>) {
    call.started = true;
    let id = call.id.get_or_insert_with(new_call_id).clone();
    let name = call.name.clone().unwrap_or_default();
    out.push(StreamEvent::ToolCallStart { index, id, name });
    if !call.buffered.is_empty() {
        out.push(StreamEvent::ToolCallDelta {
            index,
            arguments: std::mem::take(&mut call.buffered),
        });
    }
}

fn stop_reason(finish_reason: &str) -> StopReason {
    match finish_reason {
        "stop" => StopReason::EndTurn,
        "tool_calls" | "function_call" => StopReason::ToolUse,
        "length" => StopReason::MaxTokens,
        "content_filter" => StopReason::ContentFilter,
        other => StopReason::Other(other.to_string()),
    }
}

impl WireParser for ChunkParser {
    fn record(&mut self, data: &str, out: &mut Vec<StreamEvent>) -> Result<(), LlmError> {
        let chunk: Chunk = parse_record(data)?;
        if let Some(error) = chunk.error {
            return Err(stream_error(&error, self.api_key.as_deref()));
        }
        if let Some(usage) = chunk.usage {
            self.usage = Some(Usage {
                input_tokens: usage.prompt_tokens.unwrap_or_default(),
                output_tokens: usage.completion_tokens.unwrap_or_default(),
            });
        }
        for choice in chunk
            .choices
            .unwrap_or_default()
            .into_iter()
            .filter(|c| c.index == 0)
        {
            if let Some(delta) = choice.delta {
                if let Some(text) = delta.content.filter(|t| !t.is_empty()) {
                    out.push(StreamEvent::TextDelta(text));
                }
                for fragment in delta.tool_calls.unwrap_or_default() {
                    self.fragment(fragment, out);
                }
            }
            if let Some(reason) = choice.finish_reason.filter(|r| !r.is_empty()) {
                self.stop = Some(stop_reason(&reason));
            }
        }
        Ok(())
    }

    fn finish(&mut self, done_marker: bool, out: &mut Vec<StreamEvent>) -> Result<(), LlmError> {
        if !done_marker && self.stop.is_none() {
            return Ok(());
        }
        for (index, call) in self.calls.iter_mut().filter(|(_, c)| !c.started) {
            start(*index, call, out);
        }
        if let Some(usage) = self.usage {
            out.push(StreamEvent::Usage(usage));
        }
        let stop = self.stop.take().unwrap_or(StopReason::EndTurn);
        out.push(StreamEvent::Done {
            stop_reason: settle_stop(stop, !self.calls.is_empty()),
        });
        Ok(())
    }
}

#[cfg(test)]
#[path = "response_tests.rs"]
mod tests;
