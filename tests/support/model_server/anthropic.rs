//! Anthropic Messages wire format: named SSE events and the non-streamed `message` JSON.

use serde_json::{json, Value};

use super::turn::Turn;
use super::wire::Frame;
use super::MODELS;

fn stop_reason(turn: &Turn) -> &'static str {
    if turn.has_calls() {
        "tool_use"
    } else {
        "end_turn"
    }
}

fn ping() -> Frame {
    Frame::named("ping", json!({"type": "ping"}))
}

fn block_delta(index: usize, delta: Value) -> Frame {
    Frame::named(
        "content_block_delta",
        json!({"type": "content_block_delta", "index": index, "delta": delta}),
    )
}

fn block_start(index: usize, block: Value) -> Frame {
    Frame::named(
        "content_block_start",
        json!({"type": "content_block_start", "index": index, "content_block": block}),
    )
}

fn block_stop(index: usize) -> Frame {
    Frame::named(
        "content_block_stop",
        json!({"type": "content_block_stop", "index": index}),
    )
}

/// The SSE events of a streamed response: a text block (when there is text), then one
/// `tool_use` block per call, with pings after `message_start` and before `message_delta`.
pub(super) fn stream(turn: &Turn) -> Vec<Frame> {
    let message = json!({
        "id": format!("msg_{}", turn.seq),
        "type": "message",
        "role": "assistant",
        "content": [],
        "model": turn.model,
        "stop_reason": null,
        "stop_sequence": null,
        "usage": { "input_tokens": turn.usage.input_tokens, "output_tokens": 1 },
    });
    let mut frames = vec![
        Frame::named(
            "message_start",
            json!({"type": "message_start", "message": message}),
        ),
        ping(),
    ];
    let mut index = 0;
    if !turn.text.is_empty() {
        frames.push(block_start(index, json!({"type": "text", "text": ""})));
        for text in &turn.text_deltas {
            frames.push(block_delta(
                index,
                json!({"type": "text_delta", "text": text}),
            ));
        }
        frames.push(block_stop(index));
        index += 1;
    }
    for call in &turn.calls {
        frames.push(block_start(
            index,
            json!({"type": "tool_use", "id": call.id, "name": call.name, "input": {}}),
        ));
        frames.push(block_delta(
            index,
            json!({"type": "input_json_delta", "partial_json": ""}),
        ));
        for fragment in &call.fragments {
            frames.push(block_delta(
                index,
                json!({"type": "input_json_delta", "partial_json": fragment}),
            ));
        }
        frames.push(block_stop(index));
        index += 1;
    }
    frames.push(ping());
    frames.push(Frame::named(
        "message_delta",
        json!({
            "type": "message_delta",
            "delta": { "stop_reason": stop_reason(turn), "stop_sequence": null },
            "usage": { "output_tokens": turn.usage.output_tokens },
        }),
    ));
    frames.push(Frame::named(
        "message_stop",
        json!({"type": "message_stop"}),
    ));
    frames
}

/// The `message` document of a non-streamed response.
pub(super) fn whole(turn: &Turn) -> Value {
    let mut content = Vec::new();
    if !turn.text.is_empty() {
        content.push(json!({"type": "text", "text": turn.text}));
    }
    for call in &turn.calls {
        content.push(
            json!({"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments}),
        );
    }
    json!({
        "id": format!("msg_{}", turn.seq),
        "type": "message",
        "role": "assistant",
        "model": turn.model,
        "content": content,
        "stop_reason": stop_reason(turn),
        "stop_sequence": null,
        "usage": { "input_tokens": turn.usage.input_tokens, "output_tokens": turn.usage.output_tokens },
    })
}

/// `GET /v1/models` when the request carries an `anthropic-version` header.
pub(super) fn models() -> Value {
    let data: Vec<Value> = MODELS
        .iter()
        .map(|id| json!({"type": "model", "id": id, "display_name": id, "created_at": "2025-01-01T00:00:00Z"}))
        .collect();
    json!({ "data": data, "has_more": false, "first_id": MODELS.first(), "last_id": MODELS.last() })
}
