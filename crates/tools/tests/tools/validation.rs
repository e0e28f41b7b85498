//! Argument checks before dispatch: every rejection is `invalid_arguments` (or `too_large`)
//! and names the field at fault.

use crate::tools::{err, ok};
use hearth_tools::{ErrorKind, ToolError, MAX_ARGUMENT_BYTES};
use serde_json::json;

/// Asserts an `invalid_arguments` error on `field` whose message contains `needle`.
async fn rejects(tool: &str, args: &str, field: Option<&str>, needle: &str) {
    let error = err(tool, args).await;
    assert_eq!(error.kind, ErrorKind::InvalidArguments, "{args}: {error:?}");
    assert_eq!(error.field.as_deref(), field, "{args}: {error:?}");
    assert!(error.message.contains(needle), "{args}: {}", error.message);
}

#[tokio::test]
async fn malformed_text_and_non_objects() {
    rejects("calculator", r#"{"action": "sum""#, None, "not valid JSON").await;
    rejects("calculator", "{'action': 'sum'}", None, "not valid JSON").await;
    rejects(
        "calculator",
        "[1, 2]",
        None,
        "must be a JSON object, got array",
    )
    .await;
    rejects("calculator", r#""sum""#, None, "got string").await;
    rejects("calculator", "null", None, "got null").await;
    rejects("calculator", "42", None, "got number").await;
}

#[tokio::test]
async fn empty_text_means_no_arguments() {
    rejects("calculator", "", Some("action"), "`action` is required").await;
    rejects("calculator", "  \n", Some("action"), "is required").await;
    let info = ok("get_device_info", "").await;
    assert!(info.get("version").is_some());
}

#[tokio::test]
async fn missing_required_field() {
    rejects("calculator", "{}", Some("action"), "`action` is required").await;
    rejects(
        "calculator",
        r#"{"values": [1]}"#,
        Some("action"),
        "is required",
    )
    .await;
}

#[tokio::test]
async fn wrong_types() {
    rejects(
        "calculator",
        r#"{"action": "sum", "values": "1,2,3"}"#,
        Some("values"),
        "must be array, got string",
    )
    .await;
    rejects(
        "calculator",
        r#"{"action": "sum", "values": [1, "2", 3]}"#,
        Some("values[1]"),
        "must be number, got string",
    )
    .await;
    rejects(
        "calculator",
        r#"{"action": 7}"#,
        Some("action"),
        "must be string, got number",
    )
    .await;
    rejects(
        "calculator",
        r#"{"action": "round", "value": 2.5, "decimals": 1.5}"#,
        Some("decimals"),
        "must be integer, got number",
    )
    .await;
    rejects(
        "get_device_info",
        r#"{"fields": "version"}"#,
        Some("fields"),
        "got string",
    )
    .await;
}

#[tokio::test]
async fn unknown_enum_values() {
    rejects(
        "calculator",
        r#"{"action": "integrate"}"#,
        Some("action"),
        r#"must be one of ["evaluate","sum","#,
    )
    .await;
    rejects(
        "get_device_info",
        r#"{"fields": ["version", "cpu"]}"#,
        Some("fields[1]"),
        r#"got "cpu""#,
    )
    .await;
}

#[tokio::test]
async fn numbers_out_of_range() {
    let round = |d: &str| format!(r#"{{"action": "round", "value": 1.25, "decimals": {d}}}"#);
    rejects(
        "calculator",
        &round("16"),
        Some("decimals"),
        "must be <= 15, got 16",
    )
    .await;
    rejects(
        "calculator",
        &round("-1"),
        Some("decimals"),
        "must be >= 0, got -1",
    )
    .await;
    rejects(
        "calculator",
        &round("300"),
        Some("decimals"),
        "must be <= 15",
    )
    .await;
    let pct = |p: &str| format!(r#"{{"action": "percentile", "values": [1, 2], "p": {p}}}"#);
    rejects("calculator", &pct("100.5"), Some("p"), "must be <= 100").await;
    rejects("calculator", &pct("-0.1"), Some("p"), "must be >= 0").await;
}

#[tokio::test]
async fn strings_and_arrays_above_their_maximum() {
    let long = "1+".repeat(5_000) + "1";
    let args = json!({"action": "evaluate", "expression": long}).to_string();
    rejects(
        "calculator",
        &args,
        Some("expression"),
        "is too long: at most 10000 characters, got 10001",
    )
    .await;
    let many = vec![1; 100_001];
    let args = json!({"action": "sum", "values": many}).to_string();
    rejects(
        "calculator",
        &args,
        Some("values"),
        "has too many items: at most 100000, got 100001",
    )
    .await;
    rejects(
        "get_device_info",
        r#"{"fields": []}"#,
        Some("fields"),
        "at least 1",
    )
    .await;
}

#[tokio::test]
async fn unknown_parameters_list_the_known_ones() {
    rejects(
        "calculator",
        r#"{"action": "sum", "valuez": [1]}"#,
        Some("valuez"),
        "is not a parameter of this tool (known: action, base, decimals, expression, from, p, \
         to, value, values)",
    )
    .await;
}

#[tokio::test]
async fn values_the_schema_accepts_but_the_type_does_not() {
    // JSON Schema counts 2.0 as an integer; the u8 field does not: the typed pass names it.
    rejects(
        "calculator",
        r#"{"action": "round", "value": 1.25, "decimals": 2.0}"#,
        Some("decimals"),
        "invalid type",
    )
    .await;
}

#[tokio::test]
async fn several_problems_are_reported_together() {
    let error = err(
        "calculator",
        r#"{"action": "nope", "values": "x", "extra": 1}"#,
    )
    .await;
    assert_eq!(error.kind, ErrorKind::InvalidArguments);
    assert_eq!(error.message.matches("; ").count(), 2, "{}", error.message);
    for needle in ["`action`", "`values`", "`extra`"] {
        assert!(error.message.contains(needle), "{}", error.message);
    }
}

#[tokio::test]
async fn nulls_count_as_absent() {
    let value = ok(
        "calculator",
        r#"{"action": "sum", "values": [1, 2], "expression": null, "p": null}"#,
    )
    .await;
    assert_eq!(value["result"], json!(3));
}

#[tokio::test]
async fn oversized_argument_text_is_too_large() {
    let padding = " ".repeat(MAX_ARGUMENT_BYTES);
    let error = err("calculator", &format!(r#"{{"action": "sum"}}{padding}"#)).await;
    assert_eq!(error.kind, ErrorKind::TooLarge);
    assert!(
        error.message.contains("the limit is 16777216 bytes"),
        "{}",
        error.message
    );
}

#[test]
fn errors_serialise_for_the_model() {
    let error = ToolError::invalid("values[2]", "must be number, got string");
    assert_eq!(
        error.to_json(),
        json!({"error": {
            "kind": "invalid_arguments",
            "message": "must be number, got string",
            "field": "values[2]"
        }})
    );
    let plain = ToolError::new(ErrorKind::BlockedAddress, "10.0.0.1 is private");
    assert_eq!(
        plain.to_json(),
        json!({"error": {"kind": "blocked_address", "message": "10.0.0.1 is private"}})
    );
    assert_eq!(plain.to_string(), "blocked_address: 10.0.0.1 is private");
    let kinds = [
        (ErrorKind::InvalidArguments, "invalid_arguments"),
        (ErrorKind::NotPermitted, "not_permitted"),
        (ErrorKind::DeniedByUser, "denied_by_user"),
        (ErrorKind::NotFound, "not_found"),
        (ErrorKind::TooLarge, "too_large"),
        (ErrorKind::Timeout, "timeout"),
        (ErrorKind::RateLimited, "rate_limited"),
        (ErrorKind::Network, "network"),
        (ErrorKind::BlockedAddress, "blocked_address"),
        (ErrorKind::DeliveryFailed, "delivery_failed"),
        (ErrorKind::Unavailable, "unavailable"),
        (ErrorKind::Cancelled, "cancelled"),
        (ErrorKind::Internal, "internal"),
    ];
    for (kind, name) in kinds {
        assert_eq!(kind.as_str(), name);
        assert_eq!(serde_json::to_value(kind).ok(), Some(json!(name)));
    }
    let back: Result<ToolError, _> = serde_json::from_value(error.to_json()["error"].clone());
    assert_eq!(back.ok(), Some(error));
}
