//! A tool's argument schema as a Markdown table: each parameter's name, type, whether it is
//! required, and its description.

use serde_json::Value;

/// The parameter table of a JSON schema with `properties` (or a line saying there are none).
pub(super) fn parameter_table(schema: &Value) -> String {
    let Some(properties) = schema["properties"].as_object().filter(|p| !p.is_empty()) else {
        return "No parameters.\n".to_string();
    };
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut table =
        String::from("| parameter | type | required | description |\n|---|---|---|---|\n");
    for (name, property) in properties {
        table.push_str(&format!(
            "| `{name}` | {} | {} | {} |\n",
            cell(&type_of(property)),
            if required.contains(&name.as_str()) {
                "yes"
            } else {
                "no"
            },
            cell(property["description"].as_str().unwrap_or("")),
        ));
    }
    table
}

/// The type of a property in words: `string`, `integer or string`, `array of number`, with the
/// allowed values of an enum.
fn type_of(property: &Value) -> String {
    let mut kinds = Vec::new();
    collect_kinds(property, &mut kinds);
    let mut text = if kinds.is_empty() {
        "any".to_string()
    } else {
        kinds.join(" or ")
    };
    let values: Vec<String> = property["enum"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|v| !v.is_null())
        .map(|v| {
            format!(
                "`{}`",
                v.as_str().map_or_else(|| v.to_string(), str::to_string)
            )
        })
        .collect();
    if !values.is_empty() {
        text.push_str(&format!(": {}", values.join(", ")));
    }
    text
}

/// Every non-null type `schema` allows, through `anyOf` / `oneOf` alternatives.
fn collect_kinds(schema: &Value, kinds: &mut Vec<String>) {
    let mut push = |kind: String| {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    };
    let named: Vec<&str> = match &schema["type"] {
        Value::String(kind) => vec![kind.as_str()],
        Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    for kind in named.into_iter().filter(|k| *k != "null") {
        match (kind, schema["items"]["type"].as_str()) {
            ("array", Some(item)) => push(format!("array of {item}")),
            _ => push(kind.to_string()),
        }
    }
    for key in ["anyOf", "oneOf"] {
        for alternative in schema[key].as_array().into_iter().flatten() {
            let mut inner = Vec::new();
            collect_kinds(alternative, &mut inner);
            for kind in inner {
                push(kind);
            }
        }
    }
}

/// Text that stays inside one table cell.
fn cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// The smallest arguments `schema` accepts, as far as a guess from its keywords goes: each
/// required property with a value of its type (a string wherever one is allowed). Used only to
/// ask a tool what such a call does; nothing runs.
pub fn minimal_arguments(schema: &Value) -> Value {
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    if let Some(first) = schema["enum"].as_array().and_then(|values| values.first()) {
        return first.clone();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(alternatives) = schema[key].as_array() {
            let text = alternatives.iter().find(|a| a["type"] == "string");
            if let Some(alternative) = text.or(alternatives.first()) {
                return minimal_arguments(alternative);
            }
        }
    }
    let kind = match &schema["type"] {
        Value::Array(kinds) => kinds.first().and_then(Value::as_str).unwrap_or("null"),
        other => other.as_str().unwrap_or("object"),
    };
    match kind {
        "string" => {
            Value::String("x".repeat(schema["minLength"].as_u64().unwrap_or(1).max(1) as usize))
        }
        "integer" | "number" => schema.get("minimum").cloned().unwrap_or(Value::from(1)),
        "boolean" => Value::Bool(false),
        "array" => Value::Array(Vec::new()),
        "object" => {
            let mut object = serde_json::Map::new();
            for name in schema["required"].as_array().into_iter().flatten() {
                if let Some(name) = name.as_str() {
                    object.insert(
                        name.to_string(),
                        minimal_arguments(&schema["properties"][name]),
                    );
                }
            }
            Value::Object(object)
        }
        _ => Value::Null,
    }
}
