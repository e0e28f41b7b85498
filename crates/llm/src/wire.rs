//! Small conversions every wire format shares: JSON records, tool-argument objects, generated
//! call ids, stop reasons and in-stream error objects.

use hearth_protocol::{parts_text, ContentPart, StopReason};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::classify::{classify_status, classify_stream_error, short_detail};
use crate::{LlmError, ModelInfo};

/// Parses one streamed record; malformed JSON is a protocol error quoting (a bit of) the record.
pub(crate) fn parse_record<T: DeserializeOwned>(data: &str) -> Result<T, LlmError> {
    serde_json::from_str(data).map_err(|e| LlmError::Protocol {
        detail: format!("malformed stream chunk ({e}): {}", short_detail(data, None)),
    })
}

/// A tool call's argument text as the JSON object some APIs require: empty text is `{}`; text
/// that is not a JSON object is replaced by `{}` (and logged), since the API would refuse it.
pub(crate) fn arguments_object(arguments: &str) -> Value {
    if arguments.trim().is_empty() {
        return Value::Object(Map::new());
    }
    match serde_json::from_str::<Value>(arguments) {
        Ok(Value::Object(map)) => Value::Object(map),
        _ => {
            tracing::warn!(
                arguments,
                "tool call arguments are not a JSON object; sending {{}}"
            );
            Value::Object(Map::new())
        }
    }
}

/// Serializes a tool call's arguments object back to the text stored in `ToolCall::arguments`.
pub(crate) fn arguments_text(arguments: &Value) -> String {
    match arguments {
        Value::Null => "{}".to_string(),
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// An id for a tool call whose provider does not name its calls.
pub(crate) fn new_call_id() -> String {
    format!("call_{}", uuid::Uuid::new_v4().simple())
}

/// A model that called tools but reported a plain stop is asking for tool use.
pub(crate) fn settle_stop(stop: StopReason, called_tools: bool) -> StopReason {
    match stop {
        StopReason::EndTurn if called_tools => StopReason::ToolUse,
        other => other,
    }
}

/// A temperature as JSON with the digits the user wrote (`0.7`, not `0.699999988079071`).
pub(crate) fn temperature_value(temperature: f32) -> Value {
    temperature
        .to_string()
        .parse::<f64>()
        .ok()
        .map_or(Value::Null, Value::from)
}

/// The text of a single content part (text, or a file's name and path).
pub(crate) fn part_text(part: &ContentPart) -> String {
    parts_text(std::slice::from_ref(part))
}

/// An image or audio part's type, base64 data and name (the file a tool saved it to).
pub(crate) struct MediaPart<'a> {
    pub mime_type: &'a str,
    pub data: &'a str,
    pub name: Option<&'a str>,
}

impl MediaPart<'_> {
    /// `part` when it is an image.
    pub fn image(part: &ContentPart) -> Option<MediaPart<'_>> {
        match part {
            ContentPart::Image {
                mime_type,
                data,
                name,
            } => Some(MediaPart::new(mime_type, data, name)),
            _ => None,
        }
    }

    /// `part` when it is an audio clip.
    pub fn audio(part: &ContentPart) -> Option<MediaPart<'_>> {
        match part {
            ContentPart::Audio {
                mime_type,
                data,
                name,
            } => Some(MediaPart::new(mime_type, data, name)),
            _ => None,
        }
    }

    fn new<'a>(mime_type: &'a str, data: &'a str, name: &'a Option<String>) -> MediaPart<'a> {
        MediaPart {
            mime_type,
            data,
            name: name.as_deref(),
        }
    }
}

/// A tool as OpenAI's `tools` entries describe it (`{"type": "function", "function": {name,
/// description, parameters}}`), the shape Ollama and most chat templates take too.
pub fn function_tool(tool: &crate::ToolSpec) -> Value {
    serde_json::json!({"type": "function", "function": {
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.parameters,
    }})
}

/// The image parts among `parts`.
pub(crate) fn image_parts(parts: &[ContentPart]) -> impl Iterator<Item = MediaPart<'_>> {
    parts.iter().filter_map(MediaPart::image)
}

/// The audio parts among `parts`.
pub(crate) fn audio_parts(parts: &[ContentPart]) -> impl Iterator<Item = MediaPart<'_>> {
    parts.iter().filter_map(MediaPart::audio)
}

/// The text of `parts` without their images and audio (which travel as parts of their own where
/// the provider takes them, never as base64 in text; the tool's text names their files).
pub fn text_without_media(parts: &[ContentPart]) -> String {
    let texts: Vec<ContentPart> = parts
        .iter()
        .filter(|p| !matches!(p, ContentPart::Image { .. } | ContentPart::Audio { .. }))
        .cloned()
        .collect();
    parts_text(&texts)
}

/// An error object sent inside a stream: `{"type"|"status"|"code", "message"}` or a string.
pub(crate) fn stream_error(error: &Value, api_key: Option<&str>) -> LlmError {
    let Some(object) = error.as_object() else {
        let message = error
            .as_str()
            .map_or_else(|| error.to_string(), str::to_string);
        return classify_stream_error("", &message, api_key);
    };
    let message = object
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("unknown error");
    let code = object
        .get("code")
        .and_then(Value::as_u64)
        .and_then(|c| u16::try_from(c).ok());
    if let Some(status) = code.filter(|c| (400..600).contains(c)) {
        return classify_status(status, &error.to_string(), None, api_key);
    }
    let kind: Vec<&str> = ["type", "status", "code"]
        .iter()
        .filter_map(|k| object.get(*k)?.as_str())
        .collect();
    classify_stream_error(&kind.join(" "), message, api_key)
}

/// A model-listing field that should be an array of objects.
pub(crate) fn listing_array<'a>(
    listing: &'a Value,
    field: &str,
) -> Result<&'a Vec<Value>, LlmError> {
    listing
        .get(field)
        .and_then(Value::as_array)
        .ok_or_else(|| LlmError::Protocol {
            detail: format!("the model listing has no `{field}` array"),
        })
}

/// An OpenAI- or Anthropic-style listing: `{"data": [{"id", "context_length"?}]}` (OpenRouter
/// and vLLM add the context size).
pub(crate) fn models_from_data(listing: &Value) -> Result<Vec<ModelInfo>, LlmError> {
    Ok(listing_array(listing, "data")?
        .iter()
        .filter_map(|model| {
            let id = model.get("id")?.as_str()?.to_string();
            // OpenRouter, others, vLLM, LM Studio, Anthropic; llama.cpp's `meta` says what the
            // model was trained for.
            let context_window = [
                "context_length",
                "context_window",
                "max_model_len",
                "max_context_length",
                "max_input_tokens",
            ]
            .iter()
            .find_map(|k| model.get(*k).and_then(Value::as_u64))
            .or_else(|| model.pointer("/meta/n_ctx_train").and_then(Value::as_u64));
            Some(ModelInfo { id, context_window })
        })
        .collect())
}

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
