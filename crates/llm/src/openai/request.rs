//! Chat-completions request bodies: messages, tool definitions, images as data URLs (a tool
//! result's images in a user message after the results).

use hearth_protocol::{parts_text, ContentPart, Role};
use serde_json::{json, Value};

use crate::wire::{image_parts, part_text, temperature_value, text_without_images, ImagePart};
use crate::{ChatMessage, ChatRequest};

/// The JSON body of a streamed chat-completions request; `include_usage` asks for the final
/// usage chunk (`stream_options`), which some servers refuse.
pub(crate) fn request_body(request: &ChatRequest, include_usage: bool) -> Value {
    let mut messages = Vec::new();
    if !request.system.is_empty() {
        messages.push(json!({"role": "system", "content": request.system}));
    }
    let mut with_images: Vec<&ChatMessage> = Vec::new();
    for chat_message in &request.messages {
        if chat_message.role != Role::Tool {
            messages.extend(tool_images(&mut with_images));
        } else if image_parts(&chat_message.content).next().is_some() {
            with_images.push(chat_message);
        }
        messages.push(message(chat_message));
    }
    messages.extend(tool_images(&mut with_images));
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
            "content": text_without_images(&message.content),
        }),
    }
}

/// Tool messages cannot carry images, so the images of a run of tool results follow it in one
/// user message, each named by its call and file; `None` when the run attached none.
fn tool_images(results: &mut Vec<&ChatMessage>) -> Option<Value> {
    if results.is_empty() {
        return None;
    }
    let mut items =
        vec![json!({"type": "text", "text": "Images attached by the tool results above:"})];
    for result in results.drain(..) {
        for image in image_parts(&result.content) {
            let label = format!(
                "{} (call {}): {}",
                result.tool_name.as_deref().unwrap_or_default(),
                result.tool_call_id.as_deref().unwrap_or_default(),
                image.name.unwrap_or("image")
            );
            items.push(json!({"type": "text", "text": label}));
            items.push(image_url(&image));
        }
    }
    Some(json!({"role": "user", "content": items}))
}

fn image_url(image: &ImagePart<'_>) -> Value {
    json!({
        "type": "image_url",
        "image_url": {"url": format!("data:{};base64,{}", image.mime_type, image.data)},
    })
}

/// Plain text, or an array of text and `image_url` parts when the message has images.
fn user_content(parts: &[ContentPart]) -> Value {
    if !parts.iter().any(|p| matches!(p, ContentPart::Image { .. })) {
        return Value::from(parts_text(parts));
    }
    let items: Vec<Value> = parts
        .iter()
        .map(|part| match ImagePart::of(part) {
            Some(image) => image_url(&image),
            None => json!({"type": "text", "text": part_text(part)}),
        })
        .collect();
    Value::from(items)
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
