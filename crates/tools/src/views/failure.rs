//! The view of a failed call: the error's kind, message and field, as the model read them in
//! `{"error": {"kind", "message", "field"?}}`.

use hearth_protocol::{ToolErrorKind, ToolView};
use serde::Deserialize;

#[derive(Deserialize)]
struct Envelope {
    error: Reported,
}

#[derive(Deserialize)]
struct Reported {
    kind: serde_json::Value,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    field: Option<String>,
}

/// The failure view of an error result, or `None` when it is not a tool error (a kind this build
/// does not know reads as `failed`).
pub(super) fn failure_view(content: &str) -> Option<ToolView> {
    if content.len() > super::read::VIEWED_RESULT_MAX_BYTES {
        return None;
    }
    let Envelope { error } = serde_json::from_str(content).ok()?;
    let kind = serde_json::from_value(error.kind).unwrap_or(ToolErrorKind::Failed);
    Some(ToolView::Failure {
        error: kind,
        message: error.message.unwrap_or_default(),
        field: error.field.filter(|f| !f.is_empty()),
    })
}
