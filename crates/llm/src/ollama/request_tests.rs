//! Tests for Ollama chat request bodies.

use std::sync::Arc;

use serde_json::json;

use super::*;
use crate::fixtures::sample_request;

#[test]
fn full_conversation_body() {
    assert_eq!(
        request_body(&sample_request()),
        json!({
            "model": "test-model",
            "stream": true,
            "options": {"num_predict": 1000, "temperature": 0.2},
            "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "What is in this picture?", "images": ["iVBORw0K"]},
                {"role": "assistant", "content": "Let me look.", "tool_calls": [
                    {"function": {"name": "read_file", "arguments": {"path": "a.txt"}}},
                    {"function": {"name": "list_dir", "arguments": {}}},
                ]},
                {"role": "tool", "content": "{\"content\":\"hi\"}", "tool_name": "read_file"},
                {"role": "tool", "content": "plain text", "tool_name": "list_dir"},
                {"role": "assistant", "content": "", "tool_calls": [
                    {"function": {"name": "read_file", "arguments": {"path": "a.txt"}}},
                ]},
                {"role": "tool", "content": "[1,2]", "tool_name": "read_file"},
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
fn minimal_request_has_no_options() {
    let mut request = sample_request();
    request.messages = vec![ChatMessage::user("hi")];
    request.tools = Arc::from([]);
    request.max_tokens = None;
    request.temperature = None;
    request.system.clear();
    assert_eq!(
        request_body(&request),
        json!({
            "model": "test-model",
            "stream": true,
            "messages": [{"role": "user", "content": "hi"}],
        })
    );
}
