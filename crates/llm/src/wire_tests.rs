//! Tests for the helpers shared by the wire formats.

use serde_json::json;

use super::*;

#[test]
fn malformed_record_is_a_protocol_error_quoting_it() {
    let err = parse_record::<Value>("{\"choices\": [").unwrap_err();
    match err {
        LlmError::Protocol { detail } => assert!(detail.contains("{\"choices\": ["), "{detail}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn arguments_objects() {
    assert_eq!(arguments_object(""), json!({}));
    assert_eq!(arguments_object("  "), json!({}));
    assert_eq!(arguments_object("{\"a\":[1,2]}"), json!({"a": [1, 2]}));
    assert_eq!(arguments_object("[1]"), json!({}));
    assert_eq!(arguments_object("{\"a\":"), json!({}));
}

#[test]
fn arguments_text_round_trips() {
    assert_eq!(
        arguments_text(&json!({"city": "Paris"})),
        "{\"city\":\"Paris\"}"
    );
    assert_eq!(arguments_text(&Value::Null), "{}");
    assert_eq!(arguments_text(&json!("{\"raw\":1}")), "{\"raw\":1}");
}

#[test]
fn generated_ids_are_unique() {
    let a = new_call_id();
    assert!(a.starts_with("call_") && a.len() > 20, "{a}");
    assert_ne!(a, new_call_id());
}

#[test]
fn stop_with_tool_calls_is_tool_use() {
    assert_eq!(settle_stop(StopReason::EndTurn, true), StopReason::ToolUse);
    assert_eq!(settle_stop(StopReason::EndTurn, false), StopReason::EndTurn);
    assert_eq!(
        settle_stop(StopReason::MaxTokens, true),
        StopReason::MaxTokens
    );
}

#[test]
fn temperatures_keep_their_digits() {
    assert_eq!(temperature_value(0.7).to_string(), "0.7");
    assert_eq!(temperature_value(1.0).to_string(), "1.0");
}

#[test]
fn stream_error_objects() {
    let numeric = stream_error(
        &json!({"code": 429, "message": "quota", "status": "RESOURCE_EXHAUSTED"}),
        None,
    );
    assert!(
        matches!(numeric, LlmError::RateLimited { .. }),
        "{numeric:?}"
    );
    let text = stream_error(&json!("model crashed"), None);
    assert!(matches!(text, LlmError::Server { .. }), "{text:?}");
    let typed = stream_error(
        &json!({"type": "overloaded_error", "message": "Overloaded"}),
        None,
    );
    assert!(
        matches!(typed, LlmError::Server { status: 529, .. }),
        "{typed:?}"
    );
}

#[test]
fn data_listing() {
    let listing = json!({"object": "list", "data": [
        {"id": "gpt-4o", "object": "model"},
        {"id": "meta/llama", "context_length": 131072},
        {"no_id": true},
    ]});
    assert_eq!(
        models_from_data(&listing).unwrap(),
        vec![
            ModelInfo {
                id: "gpt-4o".into(),
                context_window: None
            },
            ModelInfo {
                id: "meta/llama".into(),
                context_window: Some(131072)
            },
        ]
    );
    assert!(matches!(
        models_from_data(&json!({"models": []})),
        Err(LlmError::Protocol { .. })
    ));
}

#[test]
fn context_windows_where_each_server_reports_them() {
    let listing = json!({"data": [
        {"id": "lmstudio-model", "max_context_length": 32768},
        {"id": "llama-cpp-model", "meta": {"n_ctx_train": 8192, "n_params": 7}},
        {"id": "claude-x", "max_input_tokens": 200000},
    ]});
    let windows: Vec<Option<u64>> = models_from_data(&listing)
        .unwrap()
        .into_iter()
        .map(|m| m.context_window)
        .collect();
    assert_eq!(windows, [Some(32768), Some(8192), Some(200000)]);
}
