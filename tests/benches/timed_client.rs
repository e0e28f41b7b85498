//! A model client with a clock on the model: it adds up the time its caller spends waiting for
//! the model (for the response to start, then for each event), and not the time the caller
//! spends between taking an event and asking for the next one.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use futures::Stream;
use hearth_llm::{
    ChatRequest, EventStream, LlmError, ModelClient, ModelInfo, ProviderKind, SharedModelClient,
    StreamEvent,
};

/// Wraps `inner`; [`TimedClient::take_waited`] answers the waiting time so far.
pub struct TimedClient {
    inner: SharedModelClient,
    waited: Arc<Mutex<Duration>>,
}

impl TimedClient {
    pub fn new(inner: SharedModelClient) -> TimedClient {
        TimedClient {
            inner,
            waited: Arc::default(),
        }
    }

    /// The waiting time added up since the last call, and a fresh start.
    pub fn take_waited(&self) -> Duration {
        std::mem::take(&mut *self.waited.lock().unwrap())
    }
}

fn add(waited: &Mutex<Duration>, time: Duration) {
    *waited.lock().unwrap() += time;
}

#[async_trait::async_trait]
impl ModelClient for TimedClient {
    fn kind(&self) -> ProviderKind {
        self.inner.kind()
    }

    async fn stream(&self, request: &ChatRequest) -> Result<EventStream, LlmError> {
        let started = Instant::now();
        let inner = self.inner.stream(request).await;
        add(&self.waited, started.elapsed());
        Ok(Box::pin(TimedStream {
            inner: inner?,
            waiting_since: None,
            waited: Arc::clone(&self.waited),
        }))
    }

    async fn list_models(&self) -> Result<Vec<ModelInfo>, LlmError> {
        self.inner.list_models().await
    }
}

struct TimedStream {
    inner: EventStream,
    /// Set while the model has been asked for an event that has not come yet.
    waiting_since: Option<Instant>,
    waited: Arc<Mutex<Duration>>,
}

impl Stream for TimedStream {
    type Item = Result<StreamEvent, LlmError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let since = self.waiting_since.take().unwrap_or_else(Instant::now);
        let polled = self.inner.as_mut().poll_next(cx);
        match polled {
            Poll::Pending => self.waiting_since = Some(since),
            Poll::Ready(_) => add(&self.waited, since.elapsed()),
        }
        polled
    }
}
