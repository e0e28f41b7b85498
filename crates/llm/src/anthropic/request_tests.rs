//! Tests for Messages API request bodies.

use std::sync::Arc;

use hearth_protocol::{ContentPart, Role};
use serde_json::json;

use super::*;
use crate::fixtures::sample_request;

#[test]
fn full_conversation_body_merges_tool_results() {
    assert_eq!(
        request_body(&sample_request()),
        json!({
            "model": "test-model",
            "max_tokens": 1000,
            "stream": true,
            "temperature": 0.2,
            "system": "Be brief.",
            "messages": [
                {"role": "user", "content": [
                    {"type": "text", "text": "What is in this picture?"},
                    {"type": "image", "source": {
                        "type": "base64", "media_type": "image/png", "data": "iVBORw0K"}},
                ]},
                {"role": "assistant", "content": [
                    {"type": "text", "text": "Let me look."},
                    {"type": "tool_use", "id": "call_1", "name": "read_file",
                     "input": {"path": "a.txt"}},
                    {"type": "tool_use", "id": "call_2", "name": "list_dir", "input": {}},
                ]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "call_1",
                     "content": "{\"content\":\"hi\"}"},
                    {"type": "tool_result", "tool_use_id": "call_2", "content": "plain text"},
                ]},
                {"role": "assistant", "content": [
                    {"type": "tool_use", "id": "call_1", "name": "read_file",
                     "input": {"path": "a.txt"}},
                ]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "call_1", "content": "[1,2]"},
                ]},
                {"role": "user", "content": [{"type": "text", "text": "Thanks"}]},
            ],
            "tools": [{
                "name": "read_file",
                "description": "Read a file",
                "input_schema": {
                    "type": "object",
                    "properties": {"path": {"type": "string"}},
                    "required": ["path"],
                },
            }],
        })
    );
}

#[test]
fn defaults_system_messages_and_empty_turns() {
    let mut request = sample_request();
    request.max_tokens = None;
    request.temperature = None;
    request.tools = Arc::from([]);
    request.system = String::new();
    request.messages = vec![
        ChatMessage {
            role: Role::System,
            content: vec![ContentPart::text("Extra rules.")],
            tool_calls: Vec::new(),
            tool_call_id: None,
            tool_name: None,
        },
        ChatMessage::user("hi"),
        ChatMessage::assistant("", Vec::new()),
    ];
    assert_eq!(
        request_body(&request),
        json!({
            "model": "test-model",
            "max_tokens": DEFAULT_MAX_TOKENS,
            "stream": true,
            "system": "Extra rules.",
            "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
        })
    );
}

#[test]
fn a_required_tool_choice_is_any() {
    let mut request = sample_request();
    assert!(request_body(&request).get("tool_choice").is_none());
    request.tool_choice = crate::ToolChoice::Required;
    assert_eq!(
        request_body(&request)["tool_choice"],
        json!({"type": "any"})
    );
}
