//! Tests for Gemini request bodies.

use std::sync::Arc;

use serde_json::json;

use super::*;
use crate::fixtures::sample_request;
use crate::ToolSpec;

#[test]
fn full_conversation_body() {
    assert_eq!(
        request_body(&sample_request()),
        json!({
            "systemInstruction": {"parts": [{"text": "Be brief."}]},
            "generationConfig": {"maxOutputTokens": 1000, "temperature": 0.2},
            "contents": [
                {"role": "user", "parts": [
                    {"text": "What is in this picture?"},
                    {"inlineData": {"mimeType": "image/png", "data": "iVBORw0K"}},
                ]},
                {"role": "model", "parts": [
                    {"text": "Let me look."},
                    {"functionCall": {"name": "read_file", "args": {"path": "a.txt"}}},
                    {"functionCall": {"name": "list_dir", "args": {}}},
                ]},
                {"role": "user", "parts": [
                    {"functionResponse": {"name": "read_file", "response": {"content": "hi"}}},
                    {"functionResponse": {"name": "list_dir",
                                          "response": {"result": "plain text"}}},
                ]},
                {"role": "model", "parts": [
                    {"functionCall": {"name": "read_file", "args": {"path": "a.txt"}}},
                ]},
                {"role": "user", "parts": [
                    {"functionResponse": {"name": "read_file", "response": {"result": [1, 2]}}},
                    {"text": "Thanks"},
                ]},
            ],
            "tools": [{"functionDeclarations": [{
                "name": "read_file",
                "description": "Read a file",
                "parameters": {
                    "type": "object",
                    "properties": {"path": {"type": "string"}},
                    "required": ["path"],
                },
            }]}],
        })
    );
}

#[test]
fn tool_without_parameters_has_no_parameters_field() {
    let mut request = sample_request();
    request.tools = Arc::from([ToolSpec {
        name: "now".into(),
        description: "Current time".into(),
        parameters: json!({"type": "object", "properties": {}, "additionalProperties": false}),
    }]);
    let body = request_body(&request);
    assert_eq!(
        body["tools"],
        json!([{"functionDeclarations": [{"name": "now", "description": "Current time"}]}])
    );
}
