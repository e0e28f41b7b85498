//! OpenAI chat-completions wire format: `chat.completion.chunk` SSE and `chat.completion` JSON.

use serde_json::{json, Value};

use super::turn::Turn;
use super::wire::Frame;
use super::{CREATED, MODELS};

fn finish_reason(turn: &Turn) -> &'static str {
    if turn.has_calls() {
        "tool_calls"
    } else {
        "stop"
    }
}

fn usage(turn: &Turn) -> Value {
    let u = turn.usage;
    json!({
        "prompt_tokens": u.input_tokens,
        "completion_tokens": u.output_tokens,
        "total_tokens": u.input_tokens + u.output_tokens,
    })
}

fn chunk(turn: &Turn, choices: Value) -> Frame {
    Frame::data(json!({
        "id": format!("chatcmpl-{}", turn.seq),
        "object": "chat.completion.chunk",
        "created": CREATED,
        "model": turn.model,
        "system_fingerprint": "fp_scripted",
        "choices": choices,
    }))
}

fn delta(turn: &Turn, delta: Value, finish: Option<&str>) -> Frame {
    chunk(
        turn,
        json!([{ "index": 0, "delta": delta, "logprobs": null, "finish_reason": finish }]),
    )
}

/// The SSE events of a streamed response; `request` decides whether a usage chunk is sent.
pub(super) fn stream(turn: &Turn, request: &Value) -> Vec<Frame> {
    let mut frames = vec![delta(
        turn,
        json!({"role": "assistant", "content": ""}),
        None,
    )];
    for text in &turn.text_deltas {
        frames.push(delta(turn, json!({ "content": text }), None));
    }
    for (index, call) in turn.calls.iter().enumerate() {
        let start = json!({
            "index": index,
            "id": call.id,
            "type": "function",
            "function": { "name": call.name, "arguments": "" },
        });
        frames.push(delta(turn, json!({ "tool_calls": [start] }), None));
        for fragment in &call.fragments {
            let part = json!({ "index": index, "function": { "arguments": fragment } });
            frames.push(delta(turn, json!({ "tool_calls": [part] }), None));
        }
    }
    frames.push(delta(turn, json!({}), Some(finish_reason(turn))));
    if request["stream_options"]["include_usage"] == Value::Bool(true) {
        let mut last = json!({
            "id": format!("chatcmpl-{}", turn.seq),
            "object": "chat.completion.chunk",
            "created": CREATED,
            "model": turn.model,
            "choices": [],
        });
        last["usage"] = usage(turn);
        frames.push(Frame::data(last));
    }
    frames.push(Frame::data("[DONE]"));
    frames
}

/// The `chat.completion` document of a non-streamed response.
pub(super) fn whole(turn: &Turn) -> Value {
    let mut message = json!({
        "role": "assistant",
        "content": if turn.text.is_empty() { Value::Null } else { Value::String(turn.text.clone()) },
        "refusal": null,
    });
    if turn.has_calls() {
        let calls: Vec<Value> = turn
            .calls
            .iter()
            .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.json}}))
            .collect();
        message["tool_calls"] = Value::Array(calls);
    }
    json!({
        "id": format!("chatcmpl-{}", turn.seq),
        "object": "chat.completion",
        "created": CREATED,
        "model": turn.model,
        "choices": [{ "index": 0, "message": message, "logprobs": null, "finish_reason": finish_reason(turn) }],
        "usage": usage(turn),
    })
}

/// The 400 body of a server that does not know `stream_options` (OpenAI's wording).
pub(super) fn unknown_stream_options() -> Value {
    json!({"error": {
        "message": "Unrecognized request argument supplied: stream_options",
        "type": "invalid_request_error",
        "param": null,
        "code": null,
    }})
}

/// `GET /props`, as llama.cpp answers it: the context the server was started with.
pub(super) fn props() -> Value {
    json!({
        "default_generation_settings": { "n_ctx": super::CONTEXT_WINDOW, "params": {} },
        "total_slots": 1,
        "model_path": "scripted.gguf",
    })
}

/// `GET /v1/models`.
pub(super) fn models() -> Value {
    let data: Vec<Value> = MODELS
        .iter()
        // As llama.cpp lists them: the context the model was trained for under `meta`.
        .map(|id| json!({"id": id, "object": "model", "created": CREATED, "owned_by": "hearth-tests", "meta": {"n_ctx_train": super::TRAINED_CONTEXT}}))
        .collect();
    json!({ "object": "list", "data": data })
}
