//! Rewrites a tool's JSON Schema into the OpenAPI subset Gemini accepts: `$ref`s inlined,
//! unsupported keywords dropped, `type: [T, "null"]` turned into `nullable`.

use serde_json::{json, Map, Value};

/// Keywords Gemini's `Schema` understands and that need no rewriting (others make the request
/// fail); `format`, `enum`, `const`, `type`, `$ref` and subschemas are handled separately.
const ALLOWED: &[&str] = &[
    "type",
    "title",
    "description",
    "nullable",
    "items",
    "minItems",
    "maxItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "example",
    "default",
    "anyOf",
    "propertyOrdering",
];

/// How deep a schema may nest before the rest is replaced by a plain object.
const MAX_DEPTH: usize = 64;

/// The Gemini form of `schema`.
pub(crate) fn gemini_schema(schema: &Value) -> Value {
    let mut definitions = Map::new();
    for key in ["definitions", "$defs"] {
        if let Some(Value::Object(defs)) = schema.get(key) {
            definitions.extend(defs.clone());
        }
    }
    let mut cleaner = Cleaner {
        definitions,
        expanding: Vec::new(),
    };
    cleaner.clean(schema, 0)
}

struct Cleaner {
    definitions: Map<String, Value>,
    /// The `$ref` names being inlined on the current path; meeting one again is a cycle, which
    /// is cut off with a plain object.
    expanding: Vec<String>,
}

impl Cleaner {
    fn clean(&mut self, schema: &Value, depth: usize) -> Value {
        let Some(object) = schema.as_object() else {
            return json!({});
        };
        if depth > MAX_DEPTH {
            return json!({"type": "object"});
        }
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            let name = reference.rsplit('/').next().unwrap_or_default().to_string();
            if self.expanding.contains(&name) {
                return json!({"type": "object"});
            }
            if let Some(Value::Object(target)) = self.definitions.get(&name) {
                let mut merged = target.clone();
                let siblings = object.iter().filter(|(k, _)| *k != "$ref");
                merged.extend(siblings.map(|(k, v)| (k.clone(), v.clone())));
                self.expanding.push(name);
                let cleaned = self.clean(&Value::Object(merged), depth + 1);
                self.expanding.pop();
                return cleaned;
            }
        }
        let mut out = Map::new();
        for (key, value) in object {
            match key.as_str() {
                "properties" => {
                    let Some(properties) = value.as_object().filter(|p| !p.is_empty()) else {
                        continue;
                    };
                    let cleaned: Map<String, Value> = properties
                        .iter()
                        .map(|(name, prop)| (name.clone(), self.clean(prop, depth + 1)))
                        .collect();
                    out.insert(key.clone(), Value::Object(cleaned));
                }
                "items" => {
                    out.insert(key.clone(), self.clean(value, depth + 1));
                }
                "anyOf" | "oneOf" => {
                    if let Some(options) = value.as_array() {
                        let cleaned = options.iter().map(|o| self.clean(o, depth + 1));
                        out.insert("anyOf".into(), Value::Array(cleaned.collect()));
                    }
                }
                "type" => match value {
                    Value::Array(types) => {
                        if types.iter().any(|t| t == "null") {
                            out.insert("nullable".into(), Value::Bool(true));
                        }
                        if let Some(first) = types.iter().find(|t| *t != "null") {
                            out.insert(key.clone(), first.clone());
                        }
                    }
                    other => {
                        out.insert(key.clone(), other.clone());
                    }
                },
                "format" if value == "enum" || value == "date-time" => {
                    out.insert(key.clone(), value.clone());
                }
                "const" if value.is_string() => {
                    out.insert("enum".into(), json!([value]));
                }
                "enum"
                    if value
                        .as_array()
                        .is_some_and(|v| v.iter().all(Value::is_string)) =>
                {
                    out.insert(key.clone(), value.clone());
                }
                other if ALLOWED.contains(&other) => {
                    out.insert(key.clone(), value.clone());
                }
                _ => {}
            }
        }
        keep_known_required(&mut out);
        Value::Object(out)
    }
}

/// `required` may only name properties that exist.
fn keep_known_required(schema: &mut Map<String, Value>) {
    let known: Vec<String> = match schema.get("properties").and_then(Value::as_object) {
        Some(properties) => properties.keys().cloned().collect(),
        None => Vec::new(),
    };
    if let Some(Value::Array(required)) = schema.get_mut("required") {
        required.retain(|name| name.as_str().is_some_and(|n| known.iter().any(|k| k == n)));
        if required.is_empty() {
            schema.remove("required");
        }
    }
}

#[cfg(test)]
#[path = "schema_tests.rs"]
mod tests;
