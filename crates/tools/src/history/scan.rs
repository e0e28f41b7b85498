//! Walking stored messages newest first, and the shapes and units the history tools share.

use hearth_protocol::{Message, MessageKind, Session};
use hearth_store::{Store, StoreError};
use serde_json::{json, Value};
use std::ops::ControlFlow;

/// Messages read from the store at a time.
const PAGE: usize = 200;
/// Characters of a message's text `list_messages` shows.
const TEXT_CHARS: usize = 1_000;

/// Calls `visit` on the messages of `session`, newest first, until it breaks. Returns whether
/// it broke.
pub(super) fn newest_first(
    store: &Store,
    session: &Session,
    mut visit: impl FnMut(&Message) -> ControlFlow<()>,
) -> Result<bool, StoreError> {
    let mut end = usize::try_from(session.message_count).unwrap_or(0);
    while end > 0 {
        let start = end.saturating_sub(PAGE);
        let page = store.list_messages_page(&session.id, start, end - start)?;
        for message in page.iter().rev() {
            if visit(message).is_break() {
                return Ok(true);
            }
        }
        end = start;
    }
    Ok(false)
}

/// Unix seconds of a unix-millisecond timestamp.
pub(super) fn seconds(ms: i64) -> i64 {
    ms.div_euclid(1000)
}

/// The channel of a session: its id up to the first `:` (`desktop:…` → `desktop`).
pub(super) fn channel_of(session_id: &str) -> &str {
    session_id.split(':').next().unwrap_or(session_id)
}

/// `text` cut to `max` characters, and whether it was cut.
pub(super) fn clip(text: &str, max: usize) -> (String, bool) {
    match text.char_indices().nth(max) {
        Some((at, _)) => (format!("{}…", &text[..at]), true),
        None => (text.to_string(), false),
    }
}

/// A message as `list_messages` shows it: text cut to [`TEXT_CHARS`], tool calls by name,
/// a tool result's content as the text of a tool message.
pub(super) fn message_json(message: &Message) -> Value {
    let mut text = message.text();
    if text.is_empty() {
        if let Some(result) = &message.tool_result {
            text.clone_from(&result.content);
        }
    }
    let (text, truncated) = clip(&text, TEXT_CHARS);
    let mut value = json!({
        "id": message.id,
        "role": message.role.as_str(),
        "text": text,
        "created_at": seconds(message.created_at),
    });
    if truncated {
        value["truncated"] = json!(true);
    }
    if message.kind == MessageKind::Summary {
        value["summary"] = json!(true);
    }
    if !message.tool_calls.is_empty() {
        let names: Vec<&str> = message.tool_calls.iter().map(|c| c.name.as_str()).collect();
        value["tool_calls"] = json!(names);
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_are_id_prefixes() {
        assert_eq!(channel_of("desktop:1234"), "desktop");
        assert_eq!(channel_of("telegram:42:7"), "telegram");
        assert_eq!(channel_of("plain"), "plain");
        assert_eq!(channel_of(""), "");
    }

    #[test]
    fn clipping_counts_characters() {
        assert_eq!(clip("héllo", 10), ("héllo".to_string(), false));
        assert_eq!(clip("绿茶很好喝", 2), ("绿茶…".to_string(), true));
        assert_eq!(clip("", 0), (String::new(), false));
    }

    #[test]
    fn seconds_round_down() {
        assert_eq!(seconds(1_999), 1);
        assert_eq!(seconds(-1), -1);
    }
}
