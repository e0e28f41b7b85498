//! Tests for parsing Messages API stream events.

use hearth_protocol::{StopReason, Usage};

use super::*;
use crate::stream::parse_all;

const STREAM: &[&str] = &[
    r#"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude","stop_reason":null,"usage":{"input_tokens":20,"cache_read_input_tokens":5,"output_tokens":1}}}"#,
    r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
    r#"{"type":"ping"}"#,
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Sure — "}}"#,
    r#"{"type":"content_block_stop","index":0}"#,
    r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_a","name":"read_file","input":{}}}"#,
    r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}"#,
    r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"path\":"}}"#,
    r#"{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_b","name":"list_dir","input":{}}}"#,
    r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"a\"}"}}"#,
    r#"{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{}"}}"#,
    r#"{"type":"content_block_stop","index":1}"#,
    r#"{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":42}}"#,
    r#"{"type":"message_stop"}"#,
];

#[test]
fn text_and_two_tool_calls() {
    let events = parse_all(&mut EventParser::new(None), STREAM, false).unwrap();
    assert_eq!(
        events,
        vec![
            StreamEvent::TextDelta("Sure — ".into()),
            StreamEvent::ToolCallStart {
                index: 0,
                id: "toolu_a".into(),
                name: "read_file".into()
            },
            StreamEvent::ToolCallDelta {
                index: 0,
                arguments: "{\"path\":".into()
            },
            StreamEvent::ToolCallStart {
                index: 1,
                id: "toolu_b".into(),
                name: "list_dir".into()
            },
            StreamEvent::ToolCallDelta {
                index: 0,
                arguments: "\"a\"}".into()
            },
            StreamEvent::ToolCallDelta {
                index: 1,
                arguments: "{}".into()
            },
            StreamEvent::Usage(Usage {
                input_tokens: 25,
                output_tokens: 42
            }),
            StreamEvent::Done {
                stop_reason: StopReason::ToolUse
            },
        ]
    );
}

#[test]
fn stop_reasons() {
    for (reason, expected) in [
        ("end_turn", StopReason::EndTurn),
        ("stop_sequence", StopReason::EndTurn),
        ("max_tokens", StopReason::MaxTokens),
        ("refusal", StopReason::ContentFilter),
        ("pause_turn", StopReason::Other("pause_turn".into())),
    ] {
        let delta = format!(
            r#"{{"type":"message_delta","delta":{{"stop_reason":"{reason}"}},"usage":{{"output_tokens":1}}}}"#
        );
        let events = parse_all(
            &mut EventParser::new(None),
            &[&delta, r#"{"type":"message_stop"}"#],
            false,
        )
        .unwrap();
        assert_eq!(
            events.last(),
            Some(&StreamEvent::Done {
                stop_reason: expected
            }),
            "{reason}"
        );
    }
}

#[test]
fn stream_without_message_stop_is_incomplete() {
    let events = parse_all(&mut EventParser::new(None), &STREAM[..13], false).unwrap();
    assert!(
        !events.iter().any(|e| matches!(e, StreamEvent::Done { .. })),
        "{events:?}"
    );
}

#[test]
fn thinking_blocks_and_unknown_events_are_ignored() {
    let records = [
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hmm"}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"x"}}"#,
        r#"{"type":"brand_new_event","stuff":[1,2,3]}"#,
        r#"{"type":"message_stop"}"#,
    ];
    let events = parse_all(&mut EventParser::new(None), &records, false).unwrap();
    assert_eq!(
        events,
        vec![
            StreamEvent::Usage(Usage::default()),
            StreamEvent::Done {
                stop_reason: StopReason::EndTurn
            },
        ]
    );
}

#[test]
fn error_event_is_classified() {
    let records =
        [r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#];
    let err = parse_all(&mut EventParser::new(None), &records, false).unwrap_err();
    assert!(
        matches!(err, LlmError::Server { status: 529, .. }),
        "{err:?}"
    );
}

#[test]
fn malformed_event_is_a_protocol_error() {
    let err = parse_all(
        &mut EventParser::new(None),
        &[r#"{"type":"message_start""#],
        false,
    )
    .unwrap_err();
    assert!(matches!(err, LlmError::Protocol { .. }), "{err:?}");
}
