//! Drives a streamed HTTP response through a framing decoder and a wire-format parser into an
//! `EventStream` that ends with `Done` or an error — never silently.

use std::collections::VecDeque;
use std::pin::Pin;

use bytes::Bytes;
use futures::{Stream, StreamExt};

use crate::classify::transport_detail;
use crate::framing::{NdjsonDecoder, SseDecoder, SseItem};
use crate::{EventStream, LlmError, StreamEvent};

/// How a response body is split into records.
pub(crate) enum Framing {
    Sse,
    Ndjson,
}

/// A wire format's response parser: records in, provider-neutral events out.
pub(crate) trait WireParser: Send + 'static {
    /// One SSE event's data or one NDJSON line.
    fn record(&mut self, data: &str, out: &mut Vec<StreamEvent>) -> Result<(), LlmError>;

    /// The body ended, or sent `[DONE]` (`done_marker`), before the parser emitted `Done`: emit
    /// the final events if the response is in fact complete. Leaving `Done` out at the end of the
    /// body makes the stream fail.
    fn finish(&mut self, done_marker: bool, out: &mut Vec<StreamEvent>) -> Result<(), LlmError>;
}

enum Decoder {
    Sse(SseDecoder),
    Ndjson(NdjsonDecoder),
}

type Body = Pin<Box<dyn Stream<Item = reqwest::Result<Bytes>> + Send>>;

struct Driver<P> {
    body: Body,
    decoder: Decoder,
    parser: P,
    pending: VecDeque<Result<StreamEvent, LlmError>>,
    url: String,
    finished: bool,
}

/// Streams `response` through `parser`. Dropping the stream drops the response, which closes the
/// connection and so cancels the request.
pub(crate) fn event_stream<P: WireParser>(
    response: reqwest::Response,
    url: String,
    framing: Framing,
    parser: P,
) -> EventStream {
    let decoder = match framing {
        Framing::Sse => Decoder::Sse(SseDecoder::new()),
        Framing::Ndjson => Decoder::Ndjson(NdjsonDecoder::new()),
    };
    let driver = Driver {
        body: Box::pin(response.bytes_stream()),
        decoder,
        parser,
        pending: VecDeque::new(),
        url,
        finished: false,
    };
    Box::pin(futures::stream::unfold(driver, |mut driver| async move {
        loop {
            if let Some(item) = driver.pending.pop_front() {
                return Some((item, driver));
            }
            if driver.finished {
                return None;
            }
            driver.advance().await;
        }
    }))
}

impl<P: WireParser> Driver<P> {
    /// Reads one chunk (or the end of the body) and queues what it produced.
    async fn advance(&mut self) {
        let result = match self.body.next().await {
            Some(Ok(chunk)) => self.feed(&chunk),
            Some(Err(err)) => Err(LlmError::Network {
                url: self.url.clone(),
                detail: format!("connection lost mid-response: {}", transport_detail(err)),
            }),
            None => self.end(),
        };
        if let Err(err) = result {
            self.pending.push_back(Err(err));
            self.finished = true;
        }
    }

    fn feed(&mut self, chunk: &[u8]) -> Result<(), LlmError> {
        match &mut self.decoder {
            Decoder::Sse(decoder) => {
                let items = decoder.push(chunk)?;
                self.sse_items(items)
            }
            Decoder::Ndjson(decoder) => {
                for line in decoder.push(chunk)? {
                    self.record(&line)?;
                }
                Ok(())
            }
        }
    }

    fn end(&mut self) -> Result<(), LlmError> {
        match &mut self.decoder {
            Decoder::Sse(decoder) => {
                let items = decoder.finish()?;
                self.sse_items(items)?;
            }
            Decoder::Ndjson(decoder) => {
                if let Some(line) = decoder.finish()? {
                    self.record(&line)?;
                }
            }
        }
        self.terminate(false)?;
        if self.finished {
            return Ok(());
        }
        Err(LlmError::Network {
            url: self.url.clone(),
            detail: "connection closed mid-response".to_string(),
        })
    }

    fn sse_items(&mut self, items: Vec<SseItem>) -> Result<(), LlmError> {
        for item in items {
            match item {
                SseItem::Event { data, .. } => self.record(&data)?,
                SseItem::Done => self.terminate(true)?,
            }
        }
        Ok(())
    }

    fn record(&mut self, data: &str) -> Result<(), LlmError> {
        if self.finished {
            return Ok(());
        }
        let mut out = Vec::new();
        self.parser.record(data, &mut out)?;
        self.emit(out);
        Ok(())
    }

    /// The response says it is over: let the parser emit its final events.
    fn terminate(&mut self, done_marker: bool) -> Result<(), LlmError> {
        if self.finished {
            return Ok(());
        }
        let mut out = Vec::new();
        self.parser.finish(done_marker, &mut out)?;
        self.emit(out);
        Ok(())
    }

    fn emit(&mut self, events: Vec<StreamEvent>) {
        for event in events {
            let done = matches!(event, StreamEvent::Done { .. });
            self.pending.push_back(Ok(event));
            if done {
                self.finished = true;
                return;
            }
        }
    }
}

/// Feeds `records` to `parser`, then ends the body (after a `[DONE]` if `done_marker`).
#[cfg(test)]
pub(crate) fn parse_all<P: WireParser>(
    parser: &mut P,
    records: &[&str],
    done_marker: bool,
) -> Result<Vec<StreamEvent>, LlmError> {
    let mut out = Vec::new();
    for record in records {
        parser.record(record, &mut out)?;
    }
    parser.finish(done_marker, &mut out)?;
    Ok(out)
}
