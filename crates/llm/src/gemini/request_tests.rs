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
                    {"functionCall": {"name": "read_file", "args": {"path": "a.txt"}},
                     "thoughtSignature": "skip_thought_signature_validator"},
                    {"functionCall": {"name": "list_dir", "args": {}}},
                ]},
                {"role": "user", "parts": [
                    {"functionResponse": {"name": "read_file", "response": {"content": "hi"}}},
                    {"functionResponse": {"name": "list_dir",
                                          "response": {"result": "plain text"}}},
                ]},
                {"role": "model", "parts": [
                    {"functionCall": {"name": "read_file", "args": {"path": "a.txt"}},
                     "thoughtSignature": "skip_thought_signature_validator"},
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

#[test]
fn calls_carry_their_thought_signatures_back() {
    let mut request = sample_request();
    let turn = request
        .messages
        .iter_mut()
        .find(|m| m.tool_calls.len() == 2)
        .unwrap();
    turn.tool_calls[0].signature = Some("CiQBsig==".into());
    let body = request_body(&request);
    let parts = &body["contents"][1]["parts"];
    assert_eq!(parts[1]["thoughtSignature"], "CiQBsig==");
    // Parallel calls: Gemini signs only the first, so the second goes back unsigned.
    assert!(parts[2].get("thoughtSignature").is_none(), "{parts}");
    // A turn with no signature at all gets the documented stand-in on its first call only.
    let unsigned = &body["contents"][3]["parts"];
    assert_eq!(unsigned[0]["thoughtSignature"], NO_SIGNATURE);
}

#[test]
fn a_tool_results_audio_goes_as_inline_data_beside_its_function_response() {
    let mut result = ChatMessage::tool_result("call_1", "speak", "{\"path\":\"/m/a.wav\"}");
    result.content.push(hearth_protocol::ContentPart::Audio {
        mime_type: "audio/wav".into(),
        data: "UklGRg==".into(),
        name: Some("/m/a.wav".into()),
    });
    let mut request = sample_request();
    request.messages = vec![result];
    let body = request_body(&request);
    let parts = body["contents"][0]["parts"].as_array().unwrap();
    assert!(parts[0].get("functionResponse").is_some(), "{body}");
    assert_eq!(
        parts[1],
        json!({"inlineData": {"mimeType": "audio/wav", "data": "UklGRg=="}})
    );
}

#[test]
fn a_required_tool_choice_is_mode_any() {
    let mut request = sample_request();
    assert!(request_body(&request).get("toolConfig").is_none());
    request.tool_choice = crate::ToolChoice::Required;
    assert_eq!(
        request_body(&request)["toolConfig"],
        json!({"functionCallingConfig": {"mode": "ANY"}})
    );
}
