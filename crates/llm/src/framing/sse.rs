//! Server-sent events framing: `data:` lines (possibly several per event), comments and `[DONE]`.

use crate::LlmError;

use super::lines::LineBuffer;

/// One decoded server-sent event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SseItem {
    /// An event with its `event:` name (if any) and its data lines joined by `\n`.
    Event { event: Option<String>, data: String },
    /// The OpenAI-style `data: [DONE]` terminator.
    Done,
}

/// Turns a chunked `text/event-stream` body into events, whatever the chunk boundaries.
#[derive(Debug, Default)]
pub struct SseDecoder {
    lines: LineBuffer,
    event: Option<String>,
    data: Option<String>,
}

impl SseDecoder {
    pub fn new() -> SseDecoder {
        SseDecoder::default()
    }

    /// Feeds a chunk; returns the events it completed.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<SseItem>, LlmError> {
        let mut items = Vec::new();
        for line in self.lines.push(chunk)? {
            self.line(&line, &mut items);
        }
        Ok(items)
    }

    /// Ends the body: dispatches an event whose closing blank line never came.
    pub fn finish(&mut self) -> Result<Vec<SseItem>, LlmError> {
        let mut items = Vec::new();
        if let Some(line) = self.lines.finish()? {
            self.line(&line, &mut items);
        }
        self.dispatch(&mut items);
        Ok(items)
    }

    fn line(&mut self, line: &str, items: &mut Vec<SseItem>) {
        if line.is_empty() {
            self.dispatch(items);
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "data" => match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_string()),
            },
            "event" => self.event = Some(value.to_string()),
            _ => {}
        }
    }

    fn dispatch(&mut self, items: &mut Vec<SseItem>) {
        let event = self.event.take();
        let Some(data) = self.data.take() else {
            return;
        };
        if data.trim() == "[DONE]" {
            items.push(SseItem::Done);
        } else {
            items.push(SseItem::Event { event, data });
        }
    }
}
