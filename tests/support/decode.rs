//! Reference decoders for streamed model responses: SSE events and NDJSON lines.

use serde_json::Value;

/// One server-sent event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, when present.
    pub event: Option<String>,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

impl SseEvent {
    /// The data parsed as JSON.
    pub fn json(&self) -> serde_json::Result<Value> {
        serde_json::from_str(&self.data)
    }
}

/// Decodes a complete SSE body with LF or CRLF line endings, per the HTML living standard:
/// events end at a blank line, `:` lines are comments, one optional space follows the colon.
/// An unterminated last event is dropped, as a browser would.
pub fn parse_sse(body: &str) -> Vec<SseEvent> {
    let mut events = Vec::new();
    let mut event: Option<String> = None;
    let mut data: Vec<&str> = Vec::new();
    let normalized = body.replace("\r\n", "\n");
    let mut lines: Vec<&str> = normalized.split('\n').collect();
    // The text after the last newline is an incomplete line.
    lines.pop();
    for line in lines {
        if line.is_empty() {
            if !data.is_empty() || event.is_some() {
                events.push(SseEvent {
                    event: event.take(),
                    data: data.join("\n"),
                });
                data.clear();
            }
            continue;
        }
        if line.starts_with(':') {
            continue;
        }
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "event" => event = Some(value.to_string()),
            "data" => data.push(value),
            _ => {}
        }
    }
    events
}

/// The non-empty lines of an NDJSON body.
pub fn parse_ndjson(body: &str) -> Vec<String> {
    body.lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_handles_names_comments_crlf_multiline_and_truncation() {
        let body = ": comment\nevent: ping\ndata: {}\n\ndata: a\ndata:b\r\n\r\ndata: cut";
        let events = parse_sse(body);
        assert_eq!(
            events,
            [
                SseEvent {
                    event: Some("ping".into()),
                    data: "{}".into()
                },
                SseEvent {
                    event: None,
                    data: "a\nb".into()
                },
            ]
        );
        assert!(events[0].json().is_ok());
        assert!(parse_sse("").is_empty());
    }

    #[test]
    fn ndjson_skips_blank_lines() {
        assert_eq!(
            parse_ndjson("{\"a\":1}\n\n{\"b\":2}\n"),
            ["{\"a\":1}", "{\"b\":2}"]
        );
    }
}
