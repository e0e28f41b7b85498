//! The view builders, without I/O: each view, each dialect's names, and results that are not
//! what their tool returns.

use hearth_protocol::{ToolResult, ToolView};
use serde_json::{json, Map, Value};

use super::*;

mod command;
mod page;
mod proposed;
mod results;

fn result(name: &str, content: Value) -> ToolResult {
    raw_result(name, &content.to_string(), false)
}

fn raw_result(name: &str, content: &str, is_error: bool) -> ToolResult {
    ToolResult {
        call_id: "c1".into(),
        name: name.into(),
        content: content.into(),
        is_error,
        duration_ms: 1,
        images: Vec::new(),
        views: Vec::new(),
    }
}

fn views(canonical: &str, args: Value, content: Value) -> Vec<ToolView> {
    result_views(
        Some(canonical),
        &args.to_string(),
        &result(canonical, content),
    )
}

/// The result `write_file` gives for a change of `before` into `after`.
fn written(path: &str, before: &str, after: &str) -> Value {
    let mut fields = Map::new();
    fields.insert("path".into(), json!(path));
    crate::fs::diff::add_diff(&mut fields, path, false, before, after);
    Value::Object(fields)
}
