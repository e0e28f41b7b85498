//! Chat-completions request bodies: messages, tool definitions, images as data URLs.

use hearth_protocol::{parts_text, ContentPart, Role};
use serde_json::{json, Value};

use crate::wire::{part_text, temperature_value};
use crate::{ChatMessage, ChatRequest};

/// The JSON body of a streamed chat-completions request; `include_usage` asks for the final
/// usage chunk (`stream_options`), which some servers refuse.
pub(crate) fn request_body(request: &ChatRequest, include_usage: bool) -> Value {
    let mut messages = Vec::new();
    if !request.system.is_empty() {
        messages.push(json!({"role": "system", "content": request.system}));
    }
    messages.extend(request.messages.iter().map(message));
    let mut body = json!({
        "model": request.model,
        "messages": messages,
        "stream": true,
    });
    if include_usage {
        body["stream_options"] = json!({"include_usage": true});
    }
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|tool| {
                json!({"type": "function", "function": {
                    "name": tool.name,
                    "description": tool.description,
                    "parameters": tool.parameters,
                }})
            })
            .collect();
        body["tools"] = Value::from(tools);
    }
    if let Some(max_tokens) = request.max_tokens {
        body["max_tokens"] = Value::from(max_tokens);
    }
    if let Some(temperature) = request.temperature {
        body["temperature"] = temperature_value(temperature);
    }
    body
}

fn message(message: &ChatMessage) -> Value {
    let text = parts_text(&message.content);
    match message.role {
        Role::System => json!({"role": "system", "content": text}),
        Role::User => json!({"role": "user", "content": user_content(&message.content)}),
        // `content` is always a string: llama.cpp servers reject `null` next to `tool_calls`.
        Role::Assistant if message.tool_calls.is_empty() => {
            json!({"role": "assistant", "content": text})
        }
        Role::Assistant => {
            let calls: Vec<Value> = message
                .tool_calls
                .iter()
                .map(|call| {
                    let arguments = if call.arguments.trim().is_empty() {
                        "{}"
                    } else {
                        &call.arguments
                    };
                    json!({"id": call.id, "type": "function", "function": {
                        "name": call.name,
                        "arguments": arguments,
                    }})
                })
                .collect();
            json!({"role": "assistant", "content": text, "tool_calls": calls})
        }
        Role::Tool => json!({
            "role": "tool",
            "tool_call_id": message.tool_call_id.as_deref().unwrap_or_default(),
            "content": text,
        }),
    }
}

/// Plain text, or an array of text and `image_url` parts when the message has images.
fn user_content(parts: &[ContentPart]) -> Value {
    if !parts.iter().any(|p| matches!(p, ContentPart::Image { .. })) {
        return Value::from(parts_text(parts));
    }
    let items: Vec<Value> = parts
        .iter()
        .map(|part| match part {
            ContentPart::Image {
                mime_type, data, ..
            } => json!({
                "type": "image_url",
                "image_url": {"url": format!("data:{mime_type};base64,{data}")},
            }),
            other => json!({"type": "text", "text": part_text(other)}),
        })
        .collect();
    Value::from(items)
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
