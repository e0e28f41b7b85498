//! Accumulating a streamed response: tool-call fragments by index, and whole `Completion`s.

use std::collections::BTreeMap;

use futures::StreamExt;
use hearth_protocol::ToolCall;

use crate::{Completion, EventStream, LlmError, StreamEvent};

/// Assembles `ToolCallStart` / `ToolCallDelta` / `ToolCallSignature` fragments into whole calls,
/// in index order.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ToolCallAccumulator {
    calls: BTreeMap<usize, ToolCall>,
}

impl ToolCallAccumulator {
    pub fn new() -> ToolCallAccumulator {
        ToolCallAccumulator::default()
    }

    /// Feeds one event; events other than tool-call fragments are ignored.
    pub fn push(&mut self, event: &StreamEvent) {
        match event {
            StreamEvent::ToolCallStart { index, id, name } => self.start(*index, id, name),
            StreamEvent::ToolCallDelta { index, arguments } => self.append(*index, arguments),
            StreamEvent::ToolCallSignature { index, signature } => {
                self.entry(*index).signature = Some(signature.clone());
            }
            _ => {}
        }
    }

    /// Begins call `index` (a repeated start fills in a missing id or name, keeping arguments).
    pub fn start(&mut self, index: usize, id: &str, name: &str) {
        let call = self.entry(index);
        if !id.is_empty() {
            call.id = id.to_string();
        }
        if !name.is_empty() {
            call.name = name.to_string();
        }
    }

    /// Appends an argument fragment to call `index`.
    pub fn append(&mut self, index: usize, fragment: &str) {
        self.entry(index).arguments.push_str(fragment);
    }

    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// The calls in index order; empty arguments become `{}`.
    pub fn finish(self) -> Vec<ToolCall> {
        self.calls
            .into_values()
            .map(|mut call| {
                if call.arguments.trim().is_empty() {
                    call.arguments = "{}".to_string();
                }
                call
            })
            .collect()
    }

    fn entry(&mut self, index: usize) -> &mut ToolCall {
        self.calls.entry(index).or_default()
    }
}

/// Reads a whole stream into a `Completion`. Usage events are summed. A stream that ends without
/// `Done` is an error.
pub async fn collect(mut stream: EventStream) -> Result<Completion, LlmError> {
    let mut completion = Completion::default();
    let mut calls = ToolCallAccumulator::new();
    while let Some(event) = stream.next().await {
        match event? {
            StreamEvent::TextDelta(text) => completion.text.push_str(&text),
            StreamEvent::Usage(usage) => completion.usage.add(usage),
            StreamEvent::Done { stop_reason } => completion.stop_reason = Some(stop_reason),
            other => calls.push(&other),
        }
    }
    if completion.stop_reason.is_none() {
        return Err(LlmError::Protocol {
            detail: "the response stream ended without a final event".to_string(),
        });
    }
    completion.tool_calls = calls.finish();
    Ok(completion)
}

#[cfg(test)]
#[path = "collect_tests.rs"]
mod tests;
