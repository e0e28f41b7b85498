//! Streams one model response into a stored assistant message: deltas go out as events and are
//! flushed to the store at least once a second (the last flush commits with the final status);
//! cancellation and errors keep the partial text.

use futures::StreamExt;
use hearth_llm::{ChatRequest, EventStream, LlmError, StreamEvent, ToolCallAccumulator};
use hearth_protocol::{
    AppError, ContentPart, EngineEvent, MessageStatus, Role, StopReason, ToolCall, Usage,
};
use hearth_store::{MessageEnd, NewMessage};
use tokio::time::{sleep_until, Instant};
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

/// How a stored reply ends: owned, so the store call can run off the async workers.
struct Ending {
    status: MessageStatus,
    usage: Usage,
    error: Option<AppError>,
}

fn ended(status: MessageStatus, usage: Usage, error: Option<&AppError>) -> Ending {
    Ending {
        status,
        usage,
        error: error.cloned(),
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
        let new = NewMessage {
            status: MessageStatus::Streaming,
            model: Some(request.model.clone()),
            ..NewMessage::new(session_id, Role::Assistant, Vec::new())
        };
        let message = self
            .db
            .write(move |store| store.insert_message(&new))
            .await?;
        let id = message.id;
        sink(EngineEvent::AssistantStarted {
            message_id: id,
            model: request.model.clone(),
        });

        let idle = self.options.stream_idle_timeout;
        let mut stream = match self.start_stream(request, cancel).await {
            None => {
                self.db
                    .write(move |store| {
                        store.finish_message(id, MessageStatus::Interrupted, None, None)
                    })
                    .await?;
                return Ok(Response {
                    message_id: id,
                    tool_calls: Vec::new(),
                    usage: Usage::default(),
                    cancelled: true,
                });
            }
            Some(Err(e)) => {
                let e = self.explain_closed(request, e);
                let error = AppError::from(&e);
                self.db
                    .write(move |store| {
                        store.finish_message(id, MessageStatus::Failed, None, Some(&error))
                    })
                    .await?;
                return Err(e);
            }
            Some(Ok(stream)) => stream,
        };

        let mut draft = Draft::default();
        let mut flush = tokio::time::interval(self.options.flush_interval);
        let mut deadline = Instant::now() + idle;
        loop {
            tokio::select! {
                biased;
                _ = cancel.cancelled() => {
                    let usage = draft.usage;
                    self.end_draft(id, &draft, ended(MessageStatus::Interrupted, usage, None)).await?;
                    return Ok(Response { message_id: id, tool_calls: Vec::new(), usage, cancelled: true });
                }
                _ = flush.tick() => {
                    if draft.dirty {
                        let content = draft.content();
                        self.db.write(move |store| store.update_streaming(id, &content, &[])).await?;
                        draft.dirty = false;
                    }
                }
                event = stream.next() => match event {
                    None => break,
                    Some(Ok(event)) => {
                        deadline = Instant::now() + idle;
                        draft.apply(event, id, sink);
                    }
                    Some(Err(e)) => {
                        let e = if !draft.content().is_empty() {
                            EngineError::from(e)
                        } else {
                            self.explain_closed(request, e.into())
                        };
                        let error = AppError::from(&e);
                        self.end_draft(id, &draft, ended(MessageStatus::Failed, draft.usage, Some(&error))).await?;
                        return Err(e);
                    }
                },
                () = sleep_until(deadline) => {
                    let error = EngineError::Stalled(idle);
                    let reason = AppError::from(&error);
                    self.end_draft(id, &draft, ended(MessageStatus::Failed, draft.usage, Some(&reason))).await?;
                    return Err(error);
                }
            }
        }
        let content = draft.content();
        let tool_calls = draft.calls.finish();
        let end = ended(MessageStatus::Complete, draft.usage, None);
        self.finish(id, content, tool_calls.clone(), end).await?;
        sink(EngineEvent::AssistantFinished {
            message_id: id,
            usage: draft.usage,
            stop_reason: draft.stop_reason.unwrap_or(StopReason::EndTurn),
        });
        Ok(Response {
            message_id: id,
            tool_calls,
            usage: draft.usage,
            cancelled: false,
        })
    }

    /// Starts a response: `None` when `cancel` fires first, a stall when the provider sends
    /// nothing back within the idle timeout.
    pub(crate) async fn start_stream(
        &self,
        request: &ChatRequest,
        cancel: &CancellationToken,
    ) -> Option<Result<EventStream, EngineError>> {
        let idle = self.options.stream_idle_timeout;
        tokio::select! {
            biased;
            _ = cancel.cancelled() => None,
            result = tokio::time::timeout(idle, self.model.stream(request)) => Some(
                result
                    .map_err(|_| EngineError::Stalled(idle))
                    .and_then(|started| started.map_err(EngineError::from)),
            ),
        }
    }

    /// A connection the server dropped before any reply to a request of at least half the
    /// model's context is most likely a request the server could not fit (llama.cpp closes the
    /// stream): say so, with the numbers, instead of blaming the network.
    fn explain_closed(&self, request: &ChatRequest, error: EngineError) -> EngineError {
        if !matches!(error, EngineError::Model(LlmError::Network { .. })) {
            return error;
        }
        let tokens = crate::history::estimate_tokens(&request.messages)
            + hearth_protocol::estimate_tokens(&request.system) as u64
            + crate::compact::tools_tokens(&request.tools);
        let window = self.options.window_of(&request.model);
        if tokens * 2 >= window {
            EngineError::ProbablyTooLong { tokens, window }
        } else {
            error
        }
    }

    /// Stores a reply cut short (cancelled, failed, stalled) with the text it had so far.
    async fn end_draft(&self, id: i64, draft: &Draft, end: Ending) -> Result<(), EngineError> {
        self.finish(id, draft.content(), Vec::new(), end).await
    }

    /// Stores a reply's last content and tool calls with how it ended, in one commit.
    async fn finish(
        &self,
        id: i64,
        content: Vec<ContentPart>,
        tool_calls: Vec<ToolCall>,
        end: Ending,
    ) -> Result<(), EngineError> {
        self.db
            .write(move |store| {
                let end = MessageEnd {
                    status: end.status,
                    usage: Some(end.usage),
                    error: end.error.as_ref(),
                };
                store.finish_streaming(id, &content, &tool_calls, end)
            })
            .await?;
        Ok(())
    }
}

/// A reply being streamed: its text, tool calls, usage and stop reason so far.
#[derive(Default)]
struct Draft {
    text: String,
    calls: ToolCallAccumulator,
    usage: Usage,
    /// `None` until the provider says why it stopped (then end of turn is assumed).
    stop_reason: Option<StopReason>,
    /// Text arrived since the last flush to the store.
    dirty: bool,
}

impl Draft {
    fn apply(&mut self, event: StreamEvent, message_id: i64, sink: &EventSink) {
        match event {
            StreamEvent::TextDelta(delta) => {
                self.text.push_str(&delta);
                self.dirty = true;
                sink(EngineEvent::TextDelta {
                    message_id,
                    text: delta,
                });
            }
            StreamEvent::Usage(u) => {
                self.usage.input_tokens = self.usage.input_tokens.max(u.input_tokens);
                self.usage.output_tokens = self.usage.output_tokens.max(u.output_tokens);
            }
            StreamEvent::Done { stop_reason } => self.stop_reason = Some(stop_reason),
            other => self.calls.push(&other),
        }
    }

    fn content(&self) -> Vec<ContentPart> {
        text_parts(&self.text)
    }
}
