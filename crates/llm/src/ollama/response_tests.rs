//! Tests for parsing Ollama's NDJSON chat stream.

use hearth_protocol::{StopReason, Usage};

use super::*;
use crate::stream::parse_all;

#[test]
fn text_tool_calls_and_final_line() {
    let records = [
        r#"{"model":"llama3","created_at":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":"Let me "},"done":false}"#,
        r#"{"model":"llama3","message":{"role":"assistant","content":"check.","thinking":"ignored"},"done":false}"#,
        r#"{"model":"llama3","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"read_file","arguments":{"path":"a.txt"}}},{"id":"given","function":{"index":1,"name":"list_dir","arguments":{}}}]},"done":false}"#,
        r#"{"model":"llama3","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","total_duration":1,"prompt_eval_count":26,"eval_count":259}"#,
    ];
    let events = parse_all(&mut LineParser::new(None), &records, false).unwrap();
    assert_eq!(events.len(), 8, "{events:?}");
    assert_eq!(events[0], StreamEvent::TextDelta("Let me ".into()));
    assert_eq!(events[1], StreamEvent::TextDelta("check.".into()));
    let StreamEvent::ToolCallStart { index: 0, id, name } = &events[2] else {
        panic!("{events:?}");
    };
    assert!(
        id.starts_with("call_") && name == "read_file",
        "{id} {name}"
    );
    assert_eq!(
        &events[3..],
        &[
            StreamEvent::ToolCallDelta {
                index: 0,
                arguments: "{\"path\":\"a.txt\"}".into()
            },
            StreamEvent::ToolCallStart {
                index: 1,
                id: "given".into(),
                name: "list_dir".into()
            },
            StreamEvent::ToolCallDelta {
                index: 1,
                arguments: "{}".into()
            },
            StreamEvent::Usage(Usage {
                input_tokens: 26,
                output_tokens: 259
            }),
            StreamEvent::Done {
                stop_reason: StopReason::ToolUse
            },
        ]
    );
}

#[test]
fn done_reasons() {
    for (line, expected) in [
        (r#"{"done":true}"#, StopReason::EndTurn),
        (
            r#"{"done":true,"done_reason":"length"}"#,
            StopReason::MaxTokens,
        ),
        (
            r#"{"done":true,"done_reason":"unload"}"#,
            StopReason::Other("unload".into()),
        ),
    ] {
        let events = parse_all(&mut LineParser::new(None), &[line], false).unwrap();
        assert_eq!(
            events.last(),
            Some(&StreamEvent::Done {
                stop_reason: expected
            }),
            "{line}"
        );
    }
}

#[test]
fn stream_without_done_line_is_incomplete() {
    let records = [r#"{"message":{"content":"partial"},"done":false}"#];
    let events = parse_all(&mut LineParser::new(None), &records, false).unwrap();
    assert_eq!(events, vec![StreamEvent::TextDelta("partial".into())]);
}

#[test]
fn error_line_is_classified() {
    let records = [r#"{"error":"model requires more system memory than is available"}"#];
    let err = parse_all(&mut LineParser::new(None), &records, false).unwrap_err();
    assert!(matches!(err, LlmError::Server { .. }), "{err:?}");
}

#[test]
fn malformed_line_is_a_protocol_error() {
    let err = parse_all(&mut LineParser::new(None), &["{\"done\":tru"], false).unwrap_err();
    assert!(matches!(err, LlmError::Protocol { .. }), "{err:?}");
}
