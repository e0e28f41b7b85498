//! Tests for parsing chat-completion chunks.

use hearth_protocol::{StopReason, Usage};

use super::*;
use crate::stream::parse_all;

fn start(index: usize, id: &str, name: &str) -> StreamEvent {
    StreamEvent::ToolCallStart {
        index,
        id: id.into(),
        name: name.into(),
    }
}

fn delta(index: usize, arguments: &str) -> StreamEvent {
    StreamEvent::ToolCallDelta {
        index,
        arguments: arguments.into(),
    }
}

#[test]
fn text_two_fragmented_tool_calls_usage_and_done() {
    let records = [
        r#"{"id":"x","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}"#,
        r#"{"choices":[{"index":0,"delta":{"content":"Checking "},"logprobs":null}]}"#,
        r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"read_file","arguments":""}}]}}]}"#,
        r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"pa"}}]}}]}"#,
        r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"list_dir","arguments":"{\"d\":"}}]}}]}"#,
        r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"th\":\"a\"}"}},{"index":1,"function":{"arguments":"1}"}}]}}]}"#,
        r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":null}"#,
        r#"{"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":34,"total_tokens":46}}"#,
    ];
    let events = parse_all(&mut ChunkParser::new(None), &records, true).unwrap();
    assert_eq!(
        events,
        vec![
            StreamEvent::TextDelta("Checking ".into()),
            start(0, "call_a", "read_file"),
            delta(0, "{\"pa"),
            start(1, "call_b", "list_dir"),
            delta(1, "{\"d\":"),
            delta(0, "th\":\"a\"}"),
            delta(1, "1}"),
            StreamEvent::Usage(Usage {
                input_tokens: 12,
                output_tokens: 34
            }),
            StreamEvent::Done {
                stop_reason: StopReason::ToolUse
            },
        ]
    );
}

#[test]
fn finish_reasons() {
    for (reason, expected) in [
        ("stop", StopReason::EndTurn),
        ("length", StopReason::MaxTokens),
        ("content_filter", StopReason::ContentFilter),
        ("tool_calls", StopReason::ToolUse),
        ("weird", StopReason::Other("weird".into())),
    ] {
        let record =
            format!(r#"{{"choices":[{{"index":0,"delta":{{}},"finish_reason":"{reason}"}}]}}"#);
        let events = parse_all(&mut ChunkParser::new(None), &[&record], true).unwrap();
        assert_eq!(
            events,
            vec![StreamEvent::Done {
                stop_reason: expected
            }],
            "{reason}"
        );
    }
}

#[test]
fn name_arriving_after_arguments_is_announced_before_them() {
    let records = [
        r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\""}}]}}]}"#,
        r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"late","function":{"name":"tool","arguments":":1}"}}]}}]}"#,
    ];
    let events = parse_all(&mut ChunkParser::new(None), &records, true).unwrap();
    assert_eq!(
        events,
        vec![
            start(0, "late", "tool"),
            delta(0, "{\"a\":1}"),
            StreamEvent::Done {
                stop_reason: StopReason::ToolUse
            },
        ]
    );
}

#[test]
fn missing_index_and_id_are_filled_in() {
    let records = [
        r#"{"choices":[{"delta":{"tool_calls":[{"function":{"name":"one","arguments":"{}"}}]}}]}"#,
        r#"{"choices":[{"delta":{"tool_calls":[{"id":"second","function":{"name":"two","arguments":"{"}}]}}]}"#,
        r#"{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"}"}}]}}]}"#,
    ];
    let events = parse_all(&mut ChunkParser::new(None), &records, true).unwrap();
    let StreamEvent::ToolCallStart { index: 0, id, .. } = &events[0] else {
        panic!("{events:?}");
    };
    assert!(id.starts_with("call_"), "{id}");
    assert_eq!(
        &events[1..],
        &[
            delta(0, "{}"),
            start(1, "second", "two"),
            delta(1, "{"),
            delta(1, "}"),
            StreamEvent::Done {
                stop_reason: StopReason::ToolUse
            }
        ]
    );
}

#[test]
fn body_ending_after_finish_reason_without_done_marker_completes() {
    let records = [r#"{"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}"#];
    let events = parse_all(&mut ChunkParser::new(None), &records, false).unwrap();
    assert_eq!(
        events,
        vec![
            StreamEvent::TextDelta("hi".into()),
            StreamEvent::Done {
                stop_reason: StopReason::EndTurn
            }
        ]
    );
}

#[test]
fn body_ending_without_finish_reason_is_incomplete() {
    let records = [r#"{"choices":[{"index":0,"delta":{"content":"hi"}}]}"#];
    let events = parse_all(&mut ChunkParser::new(None), &records, false).unwrap();
    assert_eq!(events, vec![StreamEvent::TextDelta("hi".into())]);
}

#[test]
fn other_choices_and_unknown_fields_are_ignored() {
    let records = [
        r#"{"choices":[{"index":1,"delta":{"content":"no"}},{"index":0,"delta":{"content":"yes","reasoning_content":"hmm","extra":{"x":1}}}],"system_fingerprint":"f"}"#,
    ];
    let events = parse_all(&mut ChunkParser::new(None), &records, true).unwrap();
    assert_eq!(events[0], StreamEvent::TextDelta("yes".into()));
}

#[test]
fn error_chunk_is_classified() {
    let records = [
        r#"{"error":{"message":"Rate limit reached","type":"rate_limit_error","code":"rate_limit"}}"#,
    ];
    let err = parse_all(&mut ChunkParser::new(None), &records, true).unwrap_err();
    assert!(matches!(err, LlmError::RateLimited { .. }), "{err:?}");
}

#[test]
fn malformed_chunk_is_a_protocol_error() {
    let err = parse_all(&mut ChunkParser::new(None), &["{\"choices\":[{"], true).unwrap_err();
    assert!(matches!(err, LlmError::Protocol { .. }), "{err:?}");
}

#[test]
fn final_usage_chunk_with_empty_choices_after_the_finish_reason() {
    // vLLM and OpenAI with `stream_options.include_usage`: the last chunk has `choices: []`.
    let records = [
        r#"{"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}],"usage":null}"#,
        r#"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null}"#,
        r#"{"id":"x","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":1234,"completion_tokens":56,"total_tokens":1290,"prompt_tokens_details":{"cached_tokens":0}}}"#,
    ];
    let events = parse_all(&mut ChunkParser::new(None), &records, true).unwrap();
    assert_eq!(
        events,
        vec![
            StreamEvent::TextDelta("hi".into()),
            StreamEvent::Usage(Usage {
                input_tokens: 1234,
                output_tokens: 56
            }),
            StreamEvent::Done {
                stop_reason: StopReason::EndTurn
            },
        ]
    );
}

#[test]
fn usage_on_the_finishing_chunk_with_timings() {
    // llama.cpp's server puts usage (and its own `timings`) on the chunk that finishes.
    let records = [
        r#"{"choices":[{"index":0,"delta":{"content":"ok"}}]}"#,
        r#"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"completion_tokens":7,"prompt_tokens":42,"total_tokens":49},"timings":{"prompt_n":42,"predicted_n":7}}"#,
    ];
    let events = parse_all(&mut ChunkParser::new(None), &records, true).unwrap();
    assert_eq!(
        events[1],
        StreamEvent::Usage(Usage {
            input_tokens: 42,
            output_tokens: 7
        })
    );
}

#[test]
fn no_usage_chunk_means_no_usage_event() {
    // A server asked without `stream_options` sends none: nothing is made up.
    let records = [r#"{"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}"#];
    let events = parse_all(&mut ChunkParser::new(None), &records, true).unwrap();
    assert!(!events.iter().any(|e| matches!(e, StreamEvent::Usage(_))));
}
