//! A reply streamed from the worker as provider-neutral events: text and tool calls split from
//! the model's text, usage, the stop reason. Dropping the stream mid-reply cancels the
//! generation; the worker stays locked until it has stopped, so the next request waits for it.

use std::collections::VecDeque;

use hearth_llm::{EventStream, LlmError, StreamEvent};
use hearth_protocol::{AppError, StopReason, Usage};
use tokio::sync::OwnedMutexGuard;

use super::process::Worker;
use crate::tool_calls::{CallSplitter, Piece};
use crate::wire::{Failure, Finish, FinishReason, Reply, Request};

type Guard = OwnedMutexGuard<Option<Worker>>;

struct Streaming {
    guard: Option<Guard>,
    splitter: CallSplitter,
    pending: VecDeque<Result<StreamEvent, LlmError>>,
    calls: usize,
    finished: bool,
    on_end: Option<Box<dyn FnOnce() + Send>>,
}

/// The events of the reply the worker behind `guard` is generating.
pub(super) fn events(
    guard: Guard,
    tools: Vec<String>,
    on_end: impl FnOnce() + Send + 'static,
) -> EventStream {
    let state = Streaming {
        guard: Some(guard),
        splitter: CallSplitter::new(tools),
        pending: VecDeque::new(),
        calls: 0,
        finished: false,
        on_end: Some(Box::new(on_end)),
    };
    Box::pin(futures::stream::unfold(state, |mut state| async move {
        loop {
            if let Some(item) = state.pending.pop_front() {
                return Some((item, state));
            }
            if state.finished {
                return None;
            }
            state.advance().await;
        }
    }))
}

impl Streaming {
    async fn advance(&mut self) {
        let Some(worker) = self.guard.as_mut().and_then(|guard| guard.as_mut()) else {
            self.fail(LlmError::Local(AppError::LocalWorkerCrashed {
                detail: "no worker".into(),
            }));
            return;
        };
        let file = worker.load.path.display().to_string();
        match worker.reply().await {
            Ok(Reply::Piece(text)) => {
                let pieces = self.splitter.push(&text);
                self.queue(pieces);
            }
            Ok(Reply::Done(finish)) => {
                let pieces = self.splitter.finish();
                self.queue(pieces);
                self.done(&finish);
            }
            Ok(Reply::Failed(Failure::TooLong { tokens, context })) => {
                self.fail(LlmError::ContextTooLong {
                    detail: format!(
                        "the prompt is {tokens} tokens and the model runs with {context}"
                    ),
                });
            }
            Ok(Reply::Failed(failure)) => {
                let detail = match failure {
                    Failure::Unusable(detail) | Failure::Other(detail) => detail,
                    Failure::TooLong { .. } => String::new(),
                };
                self.fail(LlmError::Local(AppError::LocalModelUnusable {
                    file,
                    detail,
                }));
            }
            Ok(other) => self.fail(LlmError::Protocol {
                detail: format!("the model worker answered {other:?} mid-reply"),
            }),
            Err(death) => {
                // The worker is gone: the next request starts another.
                if let Some(guard) = self.guard.as_mut() {
                    guard.take();
                }
                self.fail(LlmError::Local(death));
            }
        }
    }

    fn queue(&mut self, pieces: Vec<Piece>) {
        for piece in pieces {
            match piece {
                Piece::Text(text) => self.pending.push_back(Ok(StreamEvent::TextDelta(text))),
                Piece::Call { name, arguments } => {
                    let index = self.calls;
                    self.calls += 1;
                    let id = format!("call_{}", uuid::Uuid::new_v4().simple());
                    self.pending
                        .push_back(Ok(StreamEvent::ToolCallStart { index, id, name }));
                    self.pending
                        .push_back(Ok(StreamEvent::ToolCallDelta { index, arguments }));
                }
            }
        }
    }

    fn done(&mut self, finish: &Finish) {
        self.pending.push_back(Ok(StreamEvent::Usage(Usage {
            input_tokens: finish.prompt_tokens,
            output_tokens: finish.completion_tokens,
        })));
        let stop_reason = match finish.reason {
            _ if self.calls > 0 => StopReason::ToolUse,
            FinishReason::Stop => StopReason::EndTurn,
            FinishReason::Length => StopReason::MaxTokens,
            FinishReason::Cancelled => StopReason::Other("cancelled".into()),
        };
        tracing::debug!(
            prompt = finish.prompt_tokens,
            cached = finish.cached_tokens,
            generated = finish.completion_tokens,
            "local reply done"
        );
        self.pending
            .push_back(Ok(StreamEvent::Done { stop_reason }));
        self.end();
    }

    fn fail(&mut self, error: LlmError) {
        self.pending.push_back(Err(error));
        self.end();
    }

    fn end(&mut self) {
        self.finished = true;
        self.guard.take();
        if let Some(on_end) = self.on_end.take() {
            on_end();
        }
    }
}

impl Drop for Streaming {
    fn drop(&mut self) {
        let Some(mut guard) = self.guard.take() else {
            return;
        };
        // Dropped mid-reply: stop the generation, read to its end, then free the worker.
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(async move {
                    if !cancel(&mut guard).await {
                        guard.take();
                    }
                });
            }
            Err(_) => {
                guard.take();
            }
        }
        if let Some(on_end) = self.on_end.take() {
            on_end();
        }
    }
}

/// Cancels the generation and reads up to its end; false when the worker did not answer.
async fn cancel(guard: &mut Guard) -> bool {
    let Some(worker) = guard.as_mut() else {
        return true;
    };
    if worker.send(&Request::Cancel).await.is_err() {
        return false;
    }
    loop {
        match worker.reply().await {
            Ok(Reply::Done(_) | Reply::Failed(_)) => return true,
            Ok(_) => {}
            Err(_) => return false,
        }
    }
}
