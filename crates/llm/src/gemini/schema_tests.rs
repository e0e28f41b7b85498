//! Tests for the Gemini schema rewrite.

use serde_json::json;

use super::*;

#[test]
fn drops_unsupported_keywords_and_inlines_refs() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Args",
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "path": {"type": "string", "format": "uri", "description": "Where"},
            "when": {"type": "string", "format": "date-time"},
            "mode": {"$ref": "#/$defs/Mode", "description": "How"},
            "limit": {"type": ["integer", "null"], "minimum": 1, "exclusiveMaximum": 10},
            "tags": {"type": "array", "items": {"$ref": "#/definitions/Tag"}},
            "kind": {"const": "file"},
            "level": {"enum": [1, 2]},
            "either": {"oneOf": [{"type": "string"}, {"type": "number", "multipleOf": 2}]},
        },
        "required": ["path", "ghost"],
        "$defs": {"Mode": {"type": "string", "enum": ["fast", "slow"]}},
        "definitions": {"Tag": {"type": "object", "properties": {"name": {"type": "string"}},
                                "additionalProperties": {"type": "string"}}},
    });
    assert_eq!(
        gemini_schema(&schema),
        json!({
            "title": "Args",
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "Where"},
                "when": {"type": "string", "format": "date-time"},
                "mode": {"type": "string", "enum": ["fast", "slow"], "description": "How"},
                "limit": {"type": "integer", "nullable": true, "minimum": 1},
                "tags": {"type": "array", "items": {"type": "object",
                         "properties": {"name": {"type": "string"}}}},
                "kind": {"enum": ["file"]},
                "level": {},
                "either": {"anyOf": [{"type": "string"}, {"type": "number"}]},
            },
            "required": ["path"],
        })
    );
}

#[test]
fn recursive_refs_are_cut_off() {
    let schema = json!({
        "type": "object",
        "properties": {"node": {"$ref": "#/$defs/Node"}},
        "$defs": {"Node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}}}},
    });
    assert_eq!(
        gemini_schema(&schema),
        json!({
            "type": "object",
            "properties": {"node": {"type": "object", "properties": {"child": {"type": "object"}}}},
        })
    );
}

#[test]
fn deep_nesting_is_bounded() {
    let mut schema = json!({"type": "string"});
    for _ in 0..200 {
        schema = json!({"type": "array", "items": schema});
    }
    let text = gemini_schema(&schema).to_string();
    assert_eq!(text.matches("\"array\"").count(), MAX_DEPTH + 1, "{text}");
}

#[test]
fn unknown_refs_and_non_object_schemas() {
    assert_eq!(
        gemini_schema(&json!({"$ref": "#/$defs/Missing", "type": "string"})),
        json!({"type": "string"})
    );
    assert_eq!(gemini_schema(&json!(true)), json!({}));
}
