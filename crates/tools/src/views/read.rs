//! Reading a stored result for a view: a JSON object within a size limit, and the start of the
//! text as a plain-text view for a result that is not one.

use hearth_protocol::ToolView;
use serde_json::{Map, Value};

/// Results longer than this are not parsed for a view (the tools spill long results, so only a
/// damaged row gets here).
pub(super) const VIEWED_RESULT_MAX_BYTES: usize = 1 << 20;

/// Characters of an unreadable result kept in its text view.
pub(super) const TEXT_VIEW_CHARS: usize = 2000;

/// `content` as a JSON object, or `None` when it is not one (or too long to read).
pub(super) fn object(content: &str) -> Option<Map<String, Value>> {
    if content.len() > VIEWED_RESULT_MAX_BYTES {
        return None;
    }
    match serde_json::from_str::<Value>(content) {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    }
}

/// The start of `content` as text.
pub(super) fn text_view(content: &str) -> ToolView {
    let mut chars = content.char_indices();
    let cut = chars.nth(TEXT_VIEW_CHARS).map(|(at, _)| at);
    ToolView::Text {
        text: content[..cut.unwrap_or(content.len())].to_string(),
        truncated: cut.is_some(),
    }
}

/// The string field `key` of `map`, when it is one.
pub(super) fn string<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    map.get(key).and_then(Value::as_str)
}

/// The string field `key` of `map` when it is a non-empty string.
pub(super) fn non_empty(map: &Map<String, Value>, key: &str) -> Option<String> {
    string(map, key)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// Whether the boolean field `key` of `map` is `true`.
pub(super) fn flag(map: &Map<String, Value>, key: &str) -> bool {
    map.get(key).and_then(Value::as_bool) == Some(true)
}

/// The arguments of a call as an object (empty when they are not one).
pub(super) fn arguments(text: &str) -> Map<String, Value> {
    if text.len() > VIEWED_RESULT_MAX_BYTES {
        return Map::new();
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}
