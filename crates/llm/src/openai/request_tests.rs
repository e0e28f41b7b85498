//! Tests for chat-completions request bodies.

use std::sync::Arc;

use hearth_protocol::ToolCall;
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
