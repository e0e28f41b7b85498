//! Messages API request bodies: top-level system, content blocks, `tool_use` / merged
//! `tool_result` blocks, base64 images.

use hearth_protocol::{parts_text, ContentPart, Role};
use serde_json::{json, Value};

use crate::wire::{
    arguments_object, image_parts, part_text, temperature_value, text_without_media, MediaPart,
};
use crate::{ChatMessage, ChatRequest, ToolChoice};

/// `max_tokens` is required by the API; this is used when the request leaves it open.
pub(crate) const DEFAULT_MAX_TOKENS: u32 = 4096;

/// The JSON body of a streamed Messages request.
pub(crate) fn request_body(request: &ChatRequest) -> Value {
    let mut system = request.system.clone();
    let mut messages: Vec<Value> = Vec::new();
    let mut last_was_tool_result = false;
    for message in &request.messages {
        let is_tool_result = message.role == Role::Tool;
        match message.role {
            Role::System => append_system(&mut system, &parts_text(&message.content)),
            Role::User => push(&mut messages, "user", user_blocks(&message.content)),
            Role::Assistant => push(&mut messages, "assistant", assistant_blocks(message)),
            Role::Tool => {
                let block = tool_result_block(message);
                match messages
                    .last_mut()
                    .and_then(|m| m["content"].as_array_mut())
                {
                    Some(blocks) if last_was_tool_result => blocks.push(block),
                    _ => push(&mut messages, "user", vec![block]),
                }
            }
        }
        last_was_tool_result = is_tool_result;
    }
    let mut body = json!({
        "model": request.model,
        "max_tokens": request.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
        "messages": messages,
        "stream": true,
    });
    if !system.is_empty() {
        body["system"] = Value::from(system);
    }
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "name": tool.name,
                    "description": tool.description,
                    "input_schema": tool.parameters,
                })
            })
            .collect();
        body["tools"] = Value::from(tools);
        if request.tool_choice == ToolChoice::Required {
            body["tool_choice"] = json!({"type": "any"});
        }
    }
    if let Some(temperature) = request.temperature {
        body["temperature"] = temperature_value(temperature);
    }
    body
}

fn append_system(system: &mut String, text: &str) {
    if text.is_empty() {
        return;
    }
    if !system.is_empty() {
        system.push_str("\n\n");
    }
    system.push_str(text);
}

/// Adds a message unless it has no blocks (the API refuses empty content).
fn push(messages: &mut Vec<Value>, role: &str, blocks: Vec<Value>) {
    if !blocks.is_empty() {
        messages.push(json!({"role": role, "content": blocks}));
    }
}

fn user_blocks(parts: &[ContentPart]) -> Vec<Value> {
    parts
        .iter()
        .filter_map(|part| match part {
            ContentPart::Image { .. } => MediaPart::image(part).map(image_block),
            other => text_block(&part_text(other)),
        })
        .collect()
}

fn assistant_blocks(message: &ChatMessage) -> Vec<Value> {
    let mut blocks: Vec<Value> = text_block(&parts_text(&message.content))
        .into_iter()
        .collect();
    blocks.extend(message.tool_calls.iter().map(|call| {
        json!({
            "type": "tool_use",
            "id": call.id,
            "name": call.name,
            "input": arguments_object(&call.arguments),
        })
    }));
    blocks
}

/// A tool result: its text, or text and `image` blocks when the tool attached images.
fn tool_result_block(message: &ChatMessage) -> Value {
    let text = text_without_media(&message.content);
    let images: Vec<Value> = image_parts(&message.content).map(image_block).collect();
    let content = if images.is_empty() {
        Value::from(text)
    } else {
        Value::from(
            text_block(&text)
                .into_iter()
                .chain(images)
                .collect::<Vec<_>>(),
        )
    };
    json!({
        "type": "tool_result",
        "tool_use_id": message.tool_call_id.as_deref().unwrap_or_default(),
        "content": content,
    })
}

fn image_block(image: MediaPart<'_>) -> Value {
    json!({
        "type": "image",
        "source": {"type": "base64", "media_type": image.mime_type, "data": image.data},
    })
}

/// A text block, or nothing for empty text (the API refuses empty text blocks).
fn text_block(text: &str) -> Option<Value> {
    (!text.is_empty()).then(|| json!({"type": "text", "text": text}))
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
