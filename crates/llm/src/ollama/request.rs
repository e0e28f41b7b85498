//! Ollama `/api/chat` request bodies: messages with base64 `images`, whole tool calls with
//! argument objects, tool results naming their tool, and generation `options`.

use hearth_protocol::Role;
use serde_json::{json, Map, Value};

use crate::wire::{
    arguments_object, function_tool, image_parts, temperature_value, text_without_media,
};
use crate::{ChatMessage, ChatRequest};

/// The JSON body of a streamed chat request.
pub(crate) fn request_body(request: &ChatRequest) -> Value {
    let mut messages = Vec::new();
    if !request.system.is_empty() {
        messages.push(json!({"role": "system", "content": request.system}));
    }
    messages.extend(request.messages.iter().map(message));
    let mut body = json!({"model": request.model, "messages": messages, "stream": true});
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request.tools.iter().map(function_tool).collect();
        body["tools"] = Value::from(tools);
    }
    let mut options = Map::new();
    if let Some(max_tokens) = request.max_tokens {
        options.insert("num_predict".into(), Value::from(max_tokens));
    }
    if let Some(temperature) = request.temperature {
        options.insert("temperature".into(), temperature_value(temperature));
    }
    if !options.is_empty() {
        body["options"] = Value::Object(options);
    }
    body
}

fn message(message: &ChatMessage) -> Value {
    let content = text_without_media(&message.content);
    let mut value = json!({"role": message.role.as_str(), "content": content});
    let images: Vec<&str> = image_parts(&message.content).map(|i| i.data).collect();
    if !images.is_empty() {
        value["images"] = Value::from(images);
    }
    if !message.tool_calls.is_empty() {
        let calls: Vec<Value> = message
            .tool_calls
            .iter()
            .map(|call| {
                json!({"function": {
                    "name": call.name,
                    "arguments": arguments_object(&call.arguments),
                }})
            })
            .collect();
        value["tool_calls"] = Value::from(calls);
    }
    if message.role == Role::Tool {
        value["tool_name"] = Value::from(message.tool_name.as_deref().unwrap_or_default());
    }
    value
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
