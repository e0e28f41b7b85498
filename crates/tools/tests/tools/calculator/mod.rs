//! The calculator through the registry: the expression language, every action, and errors.

mod actions;
mod expression;

use crate::tools::{err, ok};
use hearth_tools::ErrorKind;
use serde_json::{json, Value};

/// pi as the calculator shows it: 15 significant digits.
pub fn pi_15() -> Value {
    serde_json::from_str("3.14159265358979").unwrap_or_default()
}

pub async fn result(args: Value) -> Value {
    ok("calculator", &args.to_string()).await["result"].clone()
}

pub async fn eval(expression: &str) -> Value {
    result(json!({"action": "evaluate", "expression": expression})).await
}

/// Asserts `invalid_arguments` on `field` with `needle` in the message.
pub async fn refused(args: Value, field: &str, needle: &str) {
    let error = err("calculator", &args.to_string()).await;
    assert_eq!(error.kind, ErrorKind::InvalidArguments, "{args}");
    assert_eq!(
        error.field.as_deref(),
        Some(field),
        "{args}: {}",
        error.message
    );
    assert!(error.message.contains(needle), "{args}: {}", error.message);
}

pub async fn eval_refused(expression: &str, needle: &str) {
    refused(
        json!({"action": "evaluate", "expression": expression}),
        "expression",
        needle,
    )
    .await;
}
