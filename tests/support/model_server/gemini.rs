//! Gemini wire format: `streamGenerateContent?alt=sse` events, `generateContent` JSON, models.

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

fn call_part(turn: &Turn, index: usize) -> Value {
    let call = &turn.calls[index];
    json!({ "functionCall": { "name": call.name, "args": call.arguments } })
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
