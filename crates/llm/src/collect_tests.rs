//! Tests for the tool-call accumulator and `collect`.

use futures::stream;
use hearth_protocol::{StopReason, ToolCall, Usage};

use super::*;

fn call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: arguments.into(),
        signature: None,
    }
}

#[test]
fn fragments_assemble_in_index_order() {
    let mut acc = ToolCallAccumulator::new();
    let events = [
        StreamEvent::ToolCallStart {
            index: 1,
            id: "b".into(),
            name: "second".into(),
        },
        StreamEvent::ToolCallStart {
            index: 0,
            id: "a".into(),
            name: "first".into(),
        },
        StreamEvent::ToolCallDelta {
            index: 1,
            arguments: "{\"x\":".into(),
        },
        StreamEvent::ToolCallDelta {
            index: 0,
            arguments: "{\"path\":\"é".into(),
        },
        StreamEvent::TextDelta("ignored".into()),
        StreamEvent::ToolCallDelta {
            index: 1,
            arguments: "2}".into(),
        },
        StreamEvent::ToolCallDelta {
            index: 0,
            arguments: "\"}".into(),
        },
    ];
    for event in &events {
        acc.push(event);
    }
    assert_eq!(
        acc.finish(),
        vec![
            call("a", "first", "{\"path\":\"é\"}"),
            call("b", "second", "{\"x\":2}")
        ]
    );
}

#[test]
fn empty_arguments_become_an_empty_object() {
    let mut acc = ToolCallAccumulator::new();
    acc.start(0, "a", "list");
    assert!(!acc.is_empty());
    assert_eq!(acc.finish(), vec![call("a", "list", "{}")]);
}

#[test]
fn repeated_start_fills_missing_fields_and_keeps_arguments() {
    let mut acc = ToolCallAccumulator::new();
    acc.append(0, "{\"a\"");
    acc.start(0, "", "tool");
    acc.start(0, "id1", "");
    acc.append(0, ":1}");
    assert_eq!(acc.finish(), vec![call("id1", "tool", "{\"a\":1}")]);
}

fn boxed(events: Vec<Result<StreamEvent, LlmError>>) -> EventStream {
    Box::pin(stream::iter(events))
}

#[tokio::test]
async fn collect_builds_a_completion() {
    let completion = collect(boxed(vec![
        Ok(StreamEvent::TextDelta("Hel".into())),
        Ok(StreamEvent::TextDelta("lo".into())),
        Ok(StreamEvent::ToolCallStart {
            index: 0,
            id: "c1".into(),
            name: "read".into(),
        }),
        Ok(StreamEvent::ToolCallDelta {
            index: 0,
            arguments: "{}".into(),
        }),
        Ok(StreamEvent::Usage(Usage {
            input_tokens: 3,
            output_tokens: 4,
        })),
        Ok(StreamEvent::Usage(Usage {
            input_tokens: 1,
            output_tokens: 1,
        })),
        Ok(StreamEvent::Done {
            stop_reason: StopReason::ToolUse,
        }),
    ]))
    .await
    .unwrap();
    assert_eq!(completion.text, "Hello");
    assert_eq!(completion.tool_calls, vec![call("c1", "read", "{}")]);
    assert_eq!(
        completion.usage,
        Usage {
            input_tokens: 4,
            output_tokens: 5
        }
    );
    assert_eq!(completion.stop_reason, Some(StopReason::ToolUse));
}

#[tokio::test]
async fn collect_returns_the_first_error() {
    let err = collect(boxed(vec![
        Ok(StreamEvent::TextDelta("partial".into())),
        Err(LlmError::Protocol {
            detail: "bad".into(),
        }),
        Ok(StreamEvent::Done {
            stop_reason: StopReason::EndTurn,
        }),
    ]))
    .await
    .unwrap_err();
    assert!(matches!(err, LlmError::Protocol { .. }));
}

#[tokio::test]
async fn collect_refuses_a_stream_without_done() {
    let err = collect(boxed(vec![Ok(StreamEvent::TextDelta("partial".into()))]))
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::Protocol { .. }), "{err:?}");
}
