//! Ollama wire format: `/api/chat` NDJSON lines (or one JSON object) and `/api/tags`.

use serde_json::{json, Value};

use super::turn::Turn;
use super::wire::Frame;
use super::MODELS;

const CREATED_AT: &str = "2025-01-01T00:00:00Z";

fn line(turn: &Turn, message: Value) -> Value {
    json!({ "model": turn.model, "created_at": CREATED_AT, "message": message, "done": false })
}

fn call_json(turn: &Turn, index: usize) -> Value {
    let call = &turn.calls[index];
    json!({ "function": { "index": index, "name": call.name, "arguments": call.arguments } })
}

fn final_line(turn: &Turn, message: Value) -> Value {
    json!({
        "model": turn.model,
        "created_at": CREATED_AT,
        "message": message,
        "done": true,
        "done_reason": "stop",
        "total_duration": 1_000_000,
        "load_duration": 1_000,
        "prompt_eval_count": turn.usage.input_tokens,
        "prompt_eval_duration": 1_000,
        "eval_count": turn.usage.output_tokens,
        "eval_duration": 1_000,
    })
}

/// The NDJSON lines of a streamed response: one per text delta, one per tool call (arguments
/// as a JSON object, as Ollama sends them), then the `done` line with the counts.
pub(super) fn stream(turn: &Turn) -> Vec<Frame> {
    let mut frames: Vec<Frame> = turn
        .text_deltas
        .iter()
        .map(|text| Frame::data(line(turn, json!({"role": "assistant", "content": text}))))
        .collect();
    for index in 0..turn.calls.len() {
        let message =
            json!({"role": "assistant", "content": "", "tool_calls": [call_json(turn, index)]});
        frames.push(Frame::data(line(turn, message)));
    }
    frames.push(Frame::data(final_line(
        turn,
        json!({"role": "assistant", "content": ""}),
    )));
    frames
}

/// The single object answered when the request says `"stream": false`.
pub(super) fn whole(turn: &Turn) -> Value {
    let mut message = json!({"role": "assistant", "content": turn.text});
    if turn.has_calls() {
        message["tool_calls"] = (0..turn.calls.len()).map(|i| call_json(turn, i)).collect();
    }
    final_line(turn, message)
}

/// `GET /api/tags`.
/// `POST /api/show`: a model's details, with the context length it was made for.
pub(super) fn show() -> Value {
    json!({
        "details": { "format": "gguf", "family": "scripted" },
        "model_info": {
            "general.architecture": "scripted",
            "scripted.context_length": super::CONTEXT_WINDOW,
        },
    })
}

pub(super) fn tags() -> Value {
    let models: Vec<Value> = MODELS
        .iter()
        .map(|id| {
            json!({
                "name": format!("{id}:latest"),
                "model": format!("{id}:latest"),
                "modified_at": CREATED_AT,
                "size": 1_000_000,
                "digest": "0000000000000000000000000000000000000000000000000000000000000000",
                "details": { "format": "gguf", "family": "scripted", "parameter_size": "1B", "quantization_level": "Q4_0" },
            })
        })
        .collect();
    json!({ "models": models })
}
