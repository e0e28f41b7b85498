//! The model-facing output cap: results longer than the cap are written whole to `spill/` and
//! replaced by a preview saying where the rest is.

use crate::error::ToolError;
use serde_json::{json, Value};
use std::path::Path;

/// The most characters of result JSON the model sees.
pub const MODEL_OUTPUT_CAP: usize = 50_000;

/// Returns `result` unchanged when its JSON text fits in [`MODEL_OUTPUT_CAP`] characters;
/// otherwise writes the whole text to `<data_dir>/spill/<uuid>.txt` and returns
/// `{"truncated": true, "spill_path", "total_chars", "note", "preview"}`, itself within the cap.
pub async fn spill_if_large(result: Value, data_dir: &Path) -> Result<Value, ToolError> {
    let text = result.to_string();
    let total_chars = text.chars().count();
    if total_chars <= MODEL_OUTPUT_CAP {
        return Ok(result);
    }
    let dir = data_dir.join("spill");
    let path = dir.join(format!("{}.txt", uuid::Uuid::new_v4()));
    let written = async {
        tokio::fs::create_dir_all(&dir).await?;
        tokio::fs::write(&path, &text).await
    };
    written.await.map_err(|e| {
        ToolError::internal(format!(
            "the output ({total_chars} characters) is over the cap and could not be spilled to {}: {e}",
            path.display()
        ))
    })?;
    tracing::debug!(path = %path.display(), total_chars, "tool output spilled");
    let mut envelope = json!({
        "truncated": true,
        "spill_path": path.display().to_string(),
        "total_chars": total_chars,
        "note": format!(
            "the output has {total_chars} characters, over the {MODEL_OUTPUT_CAP}-character \
             limit; the preview is its start, the whole output is in spill_path (use read_spill)"
        ),
        "preview": "",
    });
    let budget = MODEL_OUTPUT_CAP.saturating_sub(envelope.to_string().chars().count());
    envelope["preview"] = Value::String(prefix_within(&text, budget).to_string());
    Ok(envelope)
}

/// The longest prefix of `text` whose JSON string escaping takes at most `budget` characters.
fn prefix_within(text: &str, budget: usize) -> &str {
    let mut used = 0;
    for (index, c) in text.char_indices() {
        let cost = match c {
            '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
            c if c < ' ' => 6,
            _ => 1,
        };
        if used + cost > budget {
            return &text[..index];
        }
        used += cost;
    }
    text
}
