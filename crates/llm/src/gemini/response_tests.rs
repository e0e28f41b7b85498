//! Tests for parsing Gemini stream chunks.

use hearth_protocol::{StopReason, Usage};

use super::*;
use crate::stream::parse_all;

#[test]
fn text_two_calls_usage_and_finish() {
    let records = [
        r#"{"candidates":[{"content":{"parts":[{"text":"Thinking about it","thought":true},{"text":"Let me "}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":9,"totalTokenCount":9},"modelVersion":"gemini-2.5-flash"}"#,
        r#"{"candidates":[{"content":{"parts":[{"text":"look."},{"functionCall":{"name":"read_file","args":{"path":"a.txt"}}},{"functionCall":{"id":"fc_2","name":"list_dir"}}],"role":"model"},"finishReason":"STOP","index":0,"safetyRatings":[]}],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":7,"thoughtsTokenCount":3}}"#,
    ];
    let events = parse_all(&mut ChunkParser::new(None), &records, false).unwrap();
    assert_eq!(events[0], StreamEvent::TextDelta("Let me ".into()));
    assert_eq!(events[1], StreamEvent::TextDelta("look.".into()));
    let StreamEvent::ToolCallStart { index: 0, id, name } = &events[2] else {
        panic!("{events:?}");
    };
    assert!(id.starts_with("call_") && name == "read_file");
    assert_eq!(
        &events[3..],
        &[
            StreamEvent::ToolCallDelta {
                index: 0,
                arguments: "{\"path\":\"a.txt\"}".into()
            },
            StreamEvent::ToolCallStart {
                index: 1,
                id: "fc_2".into(),
                name: "list_dir".into()
            },
            StreamEvent::ToolCallDelta {
                index: 1,
                arguments: "{}".into()
            },
            StreamEvent::Usage(Usage {
                input_tokens: 9,
                output_tokens: 10
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
        ("STOP", StopReason::EndTurn),
        ("MAX_TOKENS", StopReason::MaxTokens),
        ("SAFETY", StopReason::ContentFilter),
        ("RECITATION", StopReason::ContentFilter),
        (
            "MALFORMED_FUNCTION_CALL",
            StopReason::Other("MALFORMED_FUNCTION_CALL".into()),
        ),
    ] {
        let record = format!(r#"{{"candidates":[{{"finishReason":"{reason}"}}]}}"#);
        let events = parse_all(&mut ChunkParser::new(None), &[&record], false).unwrap();
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
fn blocked_prompt_is_a_content_filter_stop() {
    let records =
        [r#"{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":4}}"#];
    let events = parse_all(&mut ChunkParser::new(None), &records, false).unwrap();
    assert_eq!(
        events,
        vec![
            StreamEvent::Usage(Usage {
                input_tokens: 4,
                output_tokens: 0
            }),
            StreamEvent::Done {
                stop_reason: StopReason::ContentFilter
            },
        ]
    );
}

#[test]
fn stream_without_finish_reason_is_incomplete() {
    let records = [r#"{"candidates":[{"content":{"parts":[{"text":"cut"}]}}]}"#];
    let events = parse_all(&mut ChunkParser::new(None), &records, false).unwrap();
    assert_eq!(events, vec![StreamEvent::TextDelta("cut".into())]);
}

#[test]
fn error_chunk_is_classified() {
    let records =
        [r#"{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}"#];
    let err = parse_all(&mut ChunkParser::new(None), &records, false).unwrap_err();
    assert!(
        matches!(err, LlmError::Server { status: 503, .. }),
        "{err:?}"
    );
}

#[test]
fn malformed_chunk_is_a_protocol_error() {
    let err = parse_all(&mut ChunkParser::new(None), &["{\"candidates\":"], false).unwrap_err();
    assert!(matches!(err, LlmError::Protocol { .. }), "{err:?}");
}

#[test]
fn thought_signatures_stay_with_their_calls() {
    let records = [
        r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"read_file","args":{"path":"a.txt"}},"thoughtSignature":"CiQBsig=="},{"functionCall":{"name":"list_dir","args":{}}}],"role":"model"},"finishReason":"STOP","index":0}]}"#,
    ];
    let events = parse_all(&mut ChunkParser::new(None), &records, false).unwrap();
    let signatures: Vec<&StreamEvent> = events
        .iter()
        .filter(|e| matches!(e, StreamEvent::ToolCallSignature { .. }))
        .collect();
    assert_eq!(
        signatures,
        [&StreamEvent::ToolCallSignature {
            index: 0,
            signature: "CiQBsig==".into()
        }]
    );
    let mut calls = crate::ToolCallAccumulator::new();
    for event in &events {
        calls.push(event);
    }
    let calls = calls.finish();
    assert_eq!(calls[0].signature.as_deref(), Some("CiQBsig=="));
    assert_eq!(calls[1].signature, None);
}
