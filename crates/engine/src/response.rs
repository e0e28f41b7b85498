//! Streams one model response into a stored assistant message: deltas go out as events and are
//! flushed to the store at least once a second; cancellation and errors keep the partial text.

use futures::StreamExt;
use hearth_llm::{ChatRequest, StreamEvent, ToolCallAccumulator};
use hearth_protocol::{ContentPart, EngineEvent, MessageStatus, Role, StopReason, ToolCall, Usage};
use hearth_store::NewMessage;
use tokio_util::sync::CancellationToken;

use crate::engine::{Engine, EventSink};
use crate::EngineError;

/// What one streamed response produced.
pub(crate) struct Response {
    pub message_id: i64,
    pub tool_calls: Vec<ToolCall>,
    pub usage: Usage,
    pub cancelled: bool,
}

fn text_parts(text: &str) -> Vec<ContentPart> {
    if text.is_empty() {
        Vec::new()
    } else {
        vec![ContentPart::text(text)]
    }
}

impl Engine {
    pub(crate) async fn stream_response(
        &self,
        session_id: &str,
        request: &ChatRequest,
        sink: &EventSink,
        cancel: &CancellationToken,
    ) -> Result<Response, EngineError> {
        let message = self.store.insert_message(&NewMessage {
            status: MessageStatus::Streaming,
            model: Some(request.model.clone()),
            ..NewMessage::new(session_id, Role::Assistant, Vec::new())
        })?;
        let id = message.id;
        sink(EngineEvent::AssistantStarted {
            message_id: id,
            model: request.model.clone(),
        });

        let started = tokio::select! {
            biased;
            _ = cancel.cancelled() => None,
            result = self.model.stream(request) => Some(result),
        };
        let mut stream = match started {
            None => {
                self.store
                    .finish_message(id, MessageStatus::Interrupted, None, None)?;
                return Ok(Response {
                    message_id: id,
                    tool_calls: Vec::new(),
                    usage: Usage::default(),
                    cancelled: true,
                });
            }
            Some(Err(e)) => {
                self.store
                    .finish_message(id, MessageStatus::Failed, None, Some(&e.to_string()))?;
                return Err(e.into());
            }
            Some(Ok(stream)) => stream,
        };

        let mut text = String::new();
        let mut calls = ToolCallAccumulator::default();
        let mut usage = Usage::default();
        let mut stop_reason = StopReason::EndTurn;
        let mut dirty = false;
        let mut flush = tokio::time::interval(self.options.flush_interval);
        loop {
            tokio::select! {
                biased;
                _ = cancel.cancelled() => {
                    self.store.update_streaming(id, &text_parts(&text), &[])?;
                    self.store.finish_message(id, MessageStatus::Interrupted, Some(usage), None)?;
                    return Ok(Response { message_id: id, tool_calls: Vec::new(), usage, cancelled: true });
                }
                _ = flush.tick() => {
                    if dirty {
                        self.store.update_streaming(id, &text_parts(&text), &[])?;
                        dirty = false;
                    }
                }
                event = stream.next() => match event {
                    None => break,
                    Some(Ok(event)) => match event {
                        StreamEvent::TextDelta(delta) => {
                            text.push_str(&delta);
                            dirty = true;
                            sink(EngineEvent::TextDelta { message_id: id, text: delta });
                        }
                        StreamEvent::Usage(u) => {
                            usage.input_tokens = usage.input_tokens.max(u.input_tokens);
                            usage.output_tokens = usage.output_tokens.max(u.output_tokens);
                        }
                        StreamEvent::Done { stop_reason: reason } => stop_reason = reason,
                        other => calls.push(&other),
                    },
                    Some(Err(e)) => {
                        self.store.update_streaming(id, &text_parts(&text), &[])?;
                        self.store.finish_message(id, MessageStatus::Failed, Some(usage), Some(&e.to_string()))?;
                        return Err(e.into());
                    }
                },
            }
        }
        let tool_calls = calls.finish();
        self.store
            .update_streaming(id, &text_parts(&text), &tool_calls)?;
        self.store
            .finish_message(id, MessageStatus::Complete, Some(usage), None)?;
        sink(EngineEvent::AssistantFinished {
            message_id: id,
            usage,
            stop_reason,
        });
        Ok(Response {
            message_id: id,
            tool_calls,
            usage,
            cancelled: false,
        })
    }
}
