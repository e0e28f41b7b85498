//! Gemini wire format: `streamGenerateContent?alt=sse` events, `generateContent` JSON, models;
//! thought signatures issued and checked the way Gemini 3 does.

use serde_json::{json, Value};

use super::turn::Turn;
use super::wire::Frame;
use super::MODELS;

fn usage(turn: &Turn) -> Value {
    let u = turn.usage;
    json!({
        "promptTokenCount": u.input_tokens,
        "candidatesTokenCount": u.output_tokens,
        "totalTokenCount": u.input_tokens + u.output_tokens,
    })
}

/// What every signature this server issues starts with (the rest names the response).
const SIGNATURE_PREFIX: &str = "c2NyaXB0ZWQ";
/// The stand-ins Gemini documents for calls whose signature was never seen.
const STAND_INS: [&str; 2] = [
    "skip_thought_signature_validator",
    "context_engineering_is_the_way_to_go",
];

/// A `functionCall` part; like Gemini 3, only the first call of a response is signed.
fn call_part(turn: &Turn, index: usize) -> Value {
    let call = &turn.calls[index];
    let mut part = json!({ "functionCall": { "name": call.name, "args": call.arguments } });
    if index == 0 {
        part["thoughtSignature"] = json!(format!("{SIGNATURE_PREFIX}-{}", turn.seq));
    }
    part
}

/// Gemini 3's check of a request's history: the first `functionCall` of every model turn must
/// carry a signature this server issued, or a documented stand-in. The error is Gemini's.
pub(super) fn check_signatures(body: &Value) -> Result<(), String> {
    let contents = body["contents"].as_array().into_iter().flatten();
    for (position, content) in contents.enumerate() {
        if content["role"] != "model" {
            continue;
        }
        let parts = content["parts"].as_array().into_iter().flatten();
        let Some(first) = parts.into_iter().find(|p| p.get("functionCall").is_some()) else {
            continue;
        };
        let signature = first["thoughtSignature"].as_str().unwrap_or_default();
        let known = signature.starts_with(SIGNATURE_PREFIX) || STAND_INS.contains(&signature);
        if !known {
            let name = first["functionCall"]["name"].as_str().unwrap_or_default();
            return Err(json!({"error": {
                "code": 400,
                "message": format!("Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:{name}` , position {position}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details."),
                "status": "INVALID_ARGUMENT",
            }})
            .to_string());
        }
    }
    Ok(())
}

fn response(turn: &Turn, parts: Vec<Value>, last: bool) -> Value {
    let mut candidate = json!({ "content": { "role": "model", "parts": parts }, "index": 0 });
    let mut response = json!({ "candidates": [], "modelVersion": turn.model, "responseId": format!("resp-{}", turn.seq) });
    if last {
        candidate["finishReason"] = json!("STOP");
        response["usageMetadata"] = usage(turn);
    }
    response["candidates"] = json!([candidate]);
    response
}

/// The SSE events of a streamed response: one per text delta, then one carrying every
/// `functionCall` part; the last event has `finishReason` and `usageMetadata`.
pub(super) fn stream(turn: &Turn) -> Vec<Frame> {
    let mut events: Vec<Vec<Value>> = turn
        .text_deltas
        .iter()
        .map(|t| vec![json!({ "text": t })])
        .collect();
    if turn.has_calls() {
        events.push((0..turn.calls.len()).map(|i| call_part(turn, i)).collect());
    }
    if events.is_empty() {
        events.push(vec![json!({ "text": "" })]);
    }
    let count = events.len();
    events
        .into_iter()
        .enumerate()
        .map(|(i, parts)| Frame::data(response(turn, parts, i + 1 == count)))
        .collect()
}

/// The document answered by `:generateContent`.
pub(super) fn whole(turn: &Turn) -> Value {
    let mut parts = Vec::new();
    if !turn.text.is_empty() {
        parts.push(json!({ "text": turn.text }));
    }
    parts.extend((0..turn.calls.len()).map(|i| call_part(turn, i)));
    response(turn, parts, true)
}

/// `GET /v1beta/models`.
pub(super) fn models() -> Value {
    let models: Vec<Value> = MODELS
        .iter()
        .map(|id| {
            json!({
                "name": format!("models/{id}"),
                "displayName": id,
                "inputTokenLimit": 128_000,
                "outputTokenLimit": 8_192,
                "supportedGenerationMethods": ["generateContent", "streamGenerateContent"],
            })
        })
        .collect();
    json!({ "models": models })
}
