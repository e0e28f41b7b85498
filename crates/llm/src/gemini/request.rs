//! Gemini request bodies: `contents` with user/model roles (same-role turns merged),
//! `systemInstruction`, function declarations, calls (with thought signatures) and responses,
//! inline images and audio.

use hearth_protocol::{parts_text, ContentPart, Role};
use serde_json::{json, Map, Value};

use super::schema::gemini_schema;
use crate::wire::{
    arguments_object, audio_parts, image_parts, part_text, temperature_value, text_without_media,
    MediaPart,
};
use crate::{ChatMessage, ChatRequest, ToolChoice};

/// The JSON body of a `streamGenerateContent` request.
pub(crate) fn request_body(request: &ChatRequest) -> Value {
    let mut system = vec![request.system.clone()];
    let mut contents: Vec<Value> = Vec::new();
    for message in &request.messages {
        match message.role {
            Role::System => system.push(parts_text(&message.content)),
            Role::User => push(&mut contents, "user", user_parts(&message.content)),
            Role::Assistant => push(&mut contents, "model", model_parts(message)),
            Role::Tool => push(&mut contents, "user", tool_parts(message)),
        }
    }
    let mut body = json!({"contents": contents});
    let system: Vec<String> = system.into_iter().filter(|s| !s.is_empty()).collect();
    if !system.is_empty() {
        body["systemInstruction"] = json!({"parts": [{"text": system.join("\n\n")}]});
    }
    if !request.tools.is_empty() {
        let declarations: Vec<Value> = request
            .tools
            .iter()
            .map(|tool| {
                let mut declaration = json!({"name": tool.name, "description": tool.description});
                let parameters = gemini_schema(&tool.parameters);
                let has_properties = parameters
                    .get("properties")
                    .and_then(Value::as_object)
                    .is_some();
                if has_properties {
                    declaration["parameters"] = parameters;
                }
                declaration
            })
            .collect();
        body["tools"] = json!([{"functionDeclarations": declarations}]);
        if request.tool_choice == ToolChoice::Required {
            body["toolConfig"] = json!({"functionCallingConfig": {"mode": "ANY"}});
        }
    }
    let mut config = Map::new();
    if let Some(max_tokens) = request.max_tokens {
        config.insert("maxOutputTokens".into(), Value::from(max_tokens));
    }
    if let Some(temperature) = request.temperature {
        config.insert("temperature".into(), temperature_value(temperature));
    }
    if !config.is_empty() {
        body["generationConfig"] = Value::Object(config);
    }
    body
}

/// Appends a turn, merging it into the previous one when the role repeats (consecutive tool
/// results become one user turn answering all the calls).
fn push(contents: &mut Vec<Value>, role: &str, parts: Vec<Value>) {
    if parts.is_empty() {
        return;
    }
    if let Some(last) = contents.last_mut().filter(|c| c["role"] == role) {
        if let Some(existing) = last["parts"].as_array_mut() {
            existing.extend(parts);
            return;
        }
    }
    contents.push(json!({"role": role, "parts": parts}));
}

fn user_parts(parts: &[ContentPart]) -> Vec<Value> {
    parts
        .iter()
        .filter_map(|part| match part {
            ContentPart::Image { .. } => MediaPart::image(part).map(inline_data),
            ContentPart::Audio { .. } => MediaPart::audio(part).map(inline_data),
            other => text_part(&part_text(other)),
        })
        .collect()
}

/// Stands in for a missing thought signature: Gemini 3 refuses a model turn whose first function
/// call has none (calls made by another provider, or stored before signatures were kept), and
/// documents this value for such histories.
const NO_SIGNATURE: &str = "skip_thought_signature_validator";

/// A model turn: its text, then its calls, each with the thought signature it came with.
fn model_parts(message: &ChatMessage) -> Vec<Value> {
    let mut parts: Vec<Value> = text_part(&parts_text(&message.content))
        .into_iter()
        .collect();
    let signed = message.tool_calls.iter().any(|c| c.signature.is_some());
    parts.extend(message.tool_calls.iter().enumerate().map(|(i, call)| {
        let mut part =
            json!({"functionCall": {"name": call.name, "args": arguments_object(&call.arguments)}});
        let stand_in = (i == 0 && !signed).then_some(NO_SIGNATURE);
        if let Some(signature) = call.signature.as_deref().or(stand_in) {
            part["thoughtSignature"] = Value::from(signature);
        }
        part
    }));
    parts
}

fn inline_data(media: MediaPart<'_>) -> Value {
    json!({"inlineData": {"mimeType": media.mime_type, "data": media.data}})
}

/// A tool result's `functionResponse`, followed by an `inlineData` part per attached image and
/// audio clip (Gemini models take both).
fn tool_parts(message: &ChatMessage) -> Vec<Value> {
    std::iter::once(function_response(message))
        .chain(image_parts(&message.content).map(inline_data))
        .chain(audio_parts(&message.content).map(inline_data))
        .collect()
}

/// A tool result; `response` must be an object, so other JSON (or plain text) is wrapped.
fn function_response(message: &ChatMessage) -> Value {
    let text = text_without_media(&message.content);
    let response = match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(object)) => Value::Object(object),
        Ok(other) => json!({"result": other}),
        Err(_) => json!({"result": text}),
    };
    let name = message.tool_name.as_deref().unwrap_or_default();
    json!({"functionResponse": {"name": name, "response": response}})
}

fn text_part(text: &str) -> Option<Value> {
    (!text.is_empty()).then(|| json!({"text": text}))
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
