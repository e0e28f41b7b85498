//! Chat-completions request bodies: messages, tool definitions, images as data URLs (a tool
//! result's images, and its WAV or MP3 audio for models that take audio, in a user message
//! after the results).

use hearth_protocol::{parts_text, ContentPart, Role};
use serde_json::{json, Value};

use crate::wire::{
    audio_parts, function_tool, image_parts, part_text, temperature_value, text_without_media,
    MediaPart,
};
use crate::{ChatMessage, ChatRequest, ToolChoice};

/// The JSON body of a streamed chat-completions request; `include_usage` asks for the final
/// usage chunk (`stream_options`), which some servers refuse.
pub(crate) fn request_body(request: &ChatRequest, include_usage: bool) -> Value {
    let mut messages = Vec::new();
    if !request.system.is_empty() {
        messages.push(json!({"role": "system", "content": request.system}));
    }
    let audio = takes_audio(&request.model);
    let mut with_media: Vec<&ChatMessage> = Vec::new();
    for chat_message in &request.messages {
        if chat_message.role != Role::Tool {
            messages.extend(tool_media(&mut with_media, audio));
        } else if !sent_media(&chat_message.content, audio).is_empty() {
            with_media.push(chat_message);
        }
        messages.push(message(chat_message));
    }
    messages.extend(tool_media(&mut with_media, audio));
    let mut body = json!({
        "model": request.model,
        "messages": messages,
        "stream": true,
    });
    if include_usage {
        body["stream_options"] = json!({"include_usage": true});
    }
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request.tools.iter().map(function_tool).collect();
        body["tools"] = Value::from(tools);
        if request.tool_choice == ToolChoice::Required {
            body["tool_choice"] = json!("required");
        }
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
            "content": text_without_media(&message.content),
        }),
    }
}

/// Whether `model` takes audio input (`gpt-4o-audio-preview`, `gpt-audio`, Qwen2.5-Omni…): other
/// models refuse a request with an `input_audio` part, so they get the audio's path only.
pub fn takes_audio(model: &str) -> bool {
    let model = model.to_ascii_lowercase();
    model.contains("audio") || model.contains("omni")
}

/// The `input_audio` format of an audio type; chat completions take WAV and MP3 only.
fn audio_format(mime_type: &str) -> Option<&'static str> {
    match mime_type {
        "audio/wav" | "audio/x-wav" | "audio/wave" => Some("wav"),
        "audio/mpeg" | "audio/mp3" => Some("mp3"),
        _ => None,
    }
}

/// The parts of a tool result sent after it: its images, and with `audio` its WAV and MP3 clips.
fn sent_media(parts: &[ContentPart], audio: bool) -> Vec<Value> {
    let images = image_parts(parts).map(|image| (image.name, image_url(&image)));
    let clips = audio_parts(parts)
        .filter(|_| audio)
        .filter_map(|clip| Some((clip.name, input_audio(&clip)?)));
    images
        .chain(clips)
        .map(|(name, part)| (name.unwrap_or("media"), part))
        .flat_map(|(name, part)| [json!({"type": "text", "text": name}), part])
        .collect()
}

/// Tool messages cannot carry images or audio, so those of a run of tool results follow it in
/// one user message, each named by its call and file; `None` when the run attached none.
fn tool_media(results: &mut Vec<&ChatMessage>, audio: bool) -> Option<Value> {
    if results.is_empty() {
        return None;
    }
    let mut items =
        vec![json!({"type": "text", "text": "Media attached by the tool results above:"})];
    for result in results.drain(..) {
        let call = format!(
            "{} (call {}): ",
            result.tool_name.as_deref().unwrap_or_default(),
            result.tool_call_id.as_deref().unwrap_or_default(),
        );
        for mut part in sent_media(&result.content, audio) {
            if let Some(name) = part["text"].as_str() {
                part["text"] = Value::from(format!("{call}{name}"));
            }
            items.push(part);
        }
    }
    Some(json!({"role": "user", "content": items}))
}

fn input_audio(clip: &MediaPart<'_>) -> Option<Value> {
    let format = audio_format(clip.mime_type)?;
    Some(json!({"type": "input_audio", "input_audio": {"data": clip.data, "format": format}}))
}

fn image_url(image: &MediaPart<'_>) -> Value {
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
        .map(|part| match MediaPart::image(part) {
            Some(image) => image_url(&image),
            None => json!({"type": "text", "text": part_text(part)}),
        })
        .collect();
    Value::from(items)
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
