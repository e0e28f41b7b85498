//! A conversation exercising every message shape, shared by the request-body unit tests.

use std::sync::Arc;

use hearth_protocol::{ContentPart, Role, ToolCall};
use serde_json::json;

use crate::{ChatMessage, ChatRequest, ToolSpec};

/// System prompt, a user turn with an image, an assistant turn with text and two tool calls
/// (one without arguments), their two results, and a follow-up user turn.
pub(crate) fn sample_request() -> ChatRequest {
    let user = ChatMessage {
        role: Role::User,
        content: vec![
            ContentPart::text("What is in this picture?"),
            ContentPart::Image {
                mime_type: "image/png".into(),
                data: "iVBORw0K".into(),
                name: None,
            },
        ],
        tool_calls: Vec::new(),
        tool_call_id: None,
        tool_name: None,
    };
    let calls = vec![
        ToolCall {
            id: "call_1".into(),
            name: "read_file".into(),
            arguments: "{\"path\":\"a.txt\"}".into(),
            signature: None,
        },
        ToolCall {
            id: "call_2".into(),
            name: "list_dir".into(),
            arguments: String::new(),
            signature: None,
        },
    ];
    ChatRequest {
        model: "test-model".into(),
        system: "Be brief.".into(),
        messages: vec![
            user,
            ChatMessage::assistant("Let me look.", calls.clone()),
            ChatMessage::tool_result("call_1", "read_file", "{\"content\":\"hi\"}"),
            ChatMessage::tool_result("call_2", "list_dir", "plain text"),
            ChatMessage::assistant("", vec![calls[0].clone()]),
            ChatMessage::tool_result("call_1", "read_file", "[1,2]"),
            ChatMessage::user("Thanks"),
        ],
        tools: Arc::from([ToolSpec {
            name: "read_file".into(),
            description: "Read a file".into(),
            parameters: json!({
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            }),
        }]),
        max_tokens: Some(1000),
        temperature: Some(0.2),
        tool_choice: crate::ToolChoice::Auto,
    }
}
