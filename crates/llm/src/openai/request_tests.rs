//! Tests for chat-completions request bodies.

use std::sync::Arc;

use hearth_protocol::{ContentPart, ToolCall};
use serde_json::json;

use super::*;
use crate::fixtures::sample_request;

#[test]
fn full_conversation_body() {
    assert_eq!(
        request_body(&sample_request(), true),
        json!({
            "model": "test-model",
            "stream": true,
            "stream_options": {"include_usage": true},
            "max_tokens": 1000,
            "temperature": 0.2,
            "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": [
                    {"type": "text", "text": "What is in this picture?"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0K"}},
                ]},
                {"role": "assistant", "content": "Let me look.", "tool_calls": [
                    {"id": "call_1", "type": "function",
                     "function": {"name": "read_file", "arguments": "{\"path\":\"a.txt\"}"}},
                    {"id": "call_2", "type": "function",
                     "function": {"name": "list_dir", "arguments": "{}"}},
                ]},
                {"role": "tool", "tool_call_id": "call_1", "content": "{\"content\":\"hi\"}"},
                {"role": "tool", "tool_call_id": "call_2", "content": "plain text"},
                {"role": "assistant", "content": "", "tool_calls": [
                    {"id": "call_1", "type": "function",
                     "function": {"name": "read_file", "arguments": "{\"path\":\"a.txt\"}"}},
                ]},
                {"role": "tool", "tool_call_id": "call_1", "content": "[1,2]"},
                {"role": "user", "content": "Thanks"},
            ],
            "tools": [{"type": "function", "function": {
                "name": "read_file",
                "description": "Read a file",
                "parameters": {
                    "type": "object",
                    "properties": {"path": {"type": "string"}},
                    "required": ["path"],
                },
            }}],
        })
    );
}

#[test]
fn assistant_tool_call_content_is_an_empty_string_never_null() {
    let call = ToolCall {
        id: "c".into(),
        name: "t".into(),
        arguments: "{}".into(),
        signature: None,
    };
    let mut request = sample_request();
    request.messages = vec![ChatMessage::assistant("", vec![call])];
    let body = request_body(&request, true);
    assert_eq!(body["messages"][1]["content"], json!(""));
    assert!(body.to_string().contains("\"content\":\"\""));
}

#[test]
fn minimal_request_leaves_optional_fields_out() {
    let request = ChatRequest {
        model: "m".into(),
        system: String::new(),
        messages: vec![ChatMessage::user("hi")],
        tools: Arc::from([]),
        max_tokens: None,
        temperature: None,
        tool_choice: crate::ToolChoice::Auto,
    };
    assert_eq!(
        request_body(&request, false),
        json!({
            "model": "m",
            "stream": true,
            "messages": [{"role": "user", "content": "hi"}],
        })
    );
    assert_eq!(
        request_body(&request, true)["stream_options"],
        json!({"include_usage": true})
    );
}

/// A turn whose MCP tool returned a WAV clip and a PNG, attached as the MCP layer attaches them.
fn media_request(model: &str) -> ChatRequest {
    let text = "{\"content\":[{\"type\":\"audio\",\"path\":\"/data/mcp-media/a.wav\"}]}";
    let mut result = ChatMessage::tool_result("call_1", "mcp__tts__speak", text);
    result.content.extend([
        ContentPart::Audio {
            mime_type: "audio/wav".into(),
            data: "UklGRg==".into(),
            name: Some("/data/mcp-media/a.wav".into()),
        },
        ContentPart::Image {
            mime_type: "image/png".into(),
            data: "iVBORw0K".into(),
            name: Some("/data/mcp-media/b.png".into()),
        },
    ]);
    let mut request = sample_request();
    request.model = model.into();
    request.messages = vec![
        ChatMessage::user("Say hi"),
        ChatMessage::assistant("", Vec::new()),
        result,
    ];
    request
}

#[test]
fn a_tool_results_audio_follows_as_input_audio_only_for_models_that_take_audio() {
    let body = request_body(&media_request("gpt-4o-audio-preview"), false);
    let messages = body["messages"].as_array().unwrap();
    let tool = &messages[messages.len() - 2];
    assert_eq!(tool["role"], "tool");
    assert!(
        !tool.to_string().contains("UklGRg=="),
        "no base64 in the tool text: {tool}"
    );
    let after = &messages[messages.len() - 1];
    assert_eq!(after["role"], "user");
    let parts = after["content"].as_array().unwrap();
    assert!(
        parts.contains(
            &json!({"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}})
        ),
        "{after}"
    );
    assert!(
        parts.contains(
            &json!({"type": "text", "text": "mcp__tts__speak (call call_1): /data/mcp-media/a.wav"})
        ),
        "{after}"
    );
    assert!(parts.iter().any(|p| p["type"] == "image_url"), "{after}");

    // A model without audio input would refuse the request: it gets the image and the path only.
    let body = request_body(&media_request("gpt-4o"), false);
    let text = body.to_string();
    assert!(!text.contains("input_audio"), "{text}");
    assert!(text.contains("image_url"), "{text}");
    assert!(
        text.contains("/data/mcp-media/a.wav"),
        "the result still names the file: {text}"
    );
}

#[test]
fn audio_models_are_told_apart_and_only_wav_and_mp3_are_sent() {
    for model in [
        "gpt-4o-audio-preview",
        "gpt-4o-mini-audio-preview",
        "gpt-audio",
        "Qwen2.5-Omni-7B",
    ] {
        assert!(takes_audio(model), "{model}");
    }
    for model in ["gpt-4o", "gpt-5", "llama3.2", "qwen3:8b"] {
        assert!(!takes_audio(model), "{model}");
    }
    assert_eq!(audio_format("audio/mpeg"), Some("mp3"));
    assert_eq!(audio_format("audio/x-wav"), Some("wav"));
    assert_eq!(audio_format("audio/ogg"), None);
}

#[test]
fn a_required_tool_choice_is_sent_only_with_tools() {
    let mut request = sample_request();
    assert!(request_body(&request, false).get("tool_choice").is_none());
    request.tool_choice = crate::ToolChoice::Required;
    assert_eq!(
        request_body(&request, false)["tool_choice"],
        json!("required")
    );
    request.tools = Arc::from([]);
    assert!(request_body(&request, false).get("tool_choice").is_none());
}
