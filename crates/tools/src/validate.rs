//! Argument checking before dispatch: size cap, JSON parsing, validation against the tool's
//! generated JSON schema, then typed deserialisation; every failure names the field.

use crate::error::{ErrorKind, ToolError};
use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::paths::{Location, LocationSegment};
use jsonschema::{ValidationError, Validator};
use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// The largest argument text accepted. Above `write_file`'s 10 MiB cap (`WRITE_MAX_BYTES`) so
/// that its content survives JSON escaping; each tool enforces its own content limits.
pub const MAX_ARGUMENT_BYTES: usize = 16 * 1024 * 1024;

/// How many validation problems one error message lists.
const MAX_REPORTED: usize = 5;

/// The model-facing JSON schema of an argument struct: draft 2020-12, subschemas inlined (no
/// `$ref`, which several providers reject), without `$schema`, `title` or the struct's doc.
pub(crate) fn schema_for<A: JsonSchema>() -> Value {
    let generator = SchemaSettings::draft2020_12()
        .with(|settings| {
            settings.inline_subschemas = true;
            settings.meta_schema = None;
        })
        .into_generator();
    let mut schema = generator.into_root_schema_for::<A>().to_value();
    if let Some(object) = schema.as_object_mut() {
        object.remove("title");
        object.remove("description");
    }
    schema
}

/// Compiles a tool's schema once, at registration.
pub(crate) fn compile(schema: &Value) -> Result<Validator, String> {
    jsonschema::draft202012::new(schema).map_err(|e| e.to_string())
}

/// Parses the model's argument text into a JSON object. Empty text means no arguments.
pub(crate) fn parse_arguments(text: &str) -> Result<Map<String, Value>, ToolError> {
    if text.len() > MAX_ARGUMENT_BYTES {
        return Err(ToolError::new(
            ErrorKind::TooLarge,
            format!(
                "arguments are {} bytes; the limit is {MAX_ARGUMENT_BYTES} bytes",
                text.len()
            ),
        ));
    }
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(ToolError::new(
            ErrorKind::InvalidArguments,
            format!("arguments must be a JSON object, got {}", json_type(&other)),
        )),
        Err(e) => Err(ToolError::new(
            ErrorKind::InvalidArguments,
            format!("arguments are not valid JSON: {e}"),
        )),
    }
}

/// Validates `args` against the compiled schema; `schema` is used to list known parameters.
pub(crate) fn check(validator: &Validator, schema: &Value, args: &Value) -> Result<(), ToolError> {
    let problems: Vec<(String, String)> = validator
        .iter_errors(args)
        .take(MAX_REPORTED)
        .map(|error| describe(&error, schema))
        .collect();
    let Some((field, _)) = problems.first() else {
        return Ok(());
    };
    let message = problems
        .iter()
        .map(|(field, message)| {
            if field.is_empty() {
                message.clone()
            } else {
                format!("`{field}` {message}")
            }
        })
        .collect::<Vec<_>>()
        .join("; ");
    Err(ToolError {
        kind: ErrorKind::InvalidArguments,
        message,
        field: (!field.is_empty()).then(|| field.clone()),
    })
}

/// Deserialises validated arguments into the tool's struct, naming the field on failure.
pub(crate) fn deserialize_args<A: DeserializeOwned>(args: Value) -> Result<A, ToolError> {
    serde_path_to_error::deserialize(args).map_err(|error| {
        let mut field = String::new();
        for segment in error.path().iter() {
            match segment {
                serde_path_to_error::Segment::Seq { index } => push_index(&mut field, *index),
                serde_path_to_error::Segment::Map { key } => push_key(&mut field, key),
                serde_path_to_error::Segment::Enum { variant } => push_key(&mut field, variant),
                serde_path_to_error::Segment::Unknown => push_key(&mut field, "?"),
            }
        }
        let inner = error.into_inner();
        let message = if field.is_empty() {
            inner.to_string()
        } else {
            format!("`{field}` {inner}")
        };
        ToolError {
            kind: ErrorKind::InvalidArguments,
            field: (!field.is_empty()).then_some(field),
            message,
        }
    })
}

/// The field (dotted path, `""` for the whole object) and a short message for one error.
fn describe(error: &ValidationError<'_>, schema: &Value) -> (String, String) {
    let mut field = dotted(error.instance_path());
    let instance = error.instance();
    let message = match error.kind() {
        ValidationErrorKind::Required { property } => {
            push_key(&mut field, property.as_str().unwrap_or_default());
            "is required".to_string()
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let name = unexpected.first().map(String::as_str).unwrap_or_default();
            push_key(&mut field, name);
            let known = known_properties(schema, error.schema_path());
            format!("is not a parameter of this tool (known: {known})")
        }
        ValidationErrorKind::Type { kind } => {
            // Optional parameters accept null too; naming the real type reads better.
            let expected = match kind {
                TypeKind::Single(t) => t.to_string(),
                TypeKind::Multiple(set) => set
                    .iter()
                    .map(|t| t.to_string())
                    .filter(|t| t != "null")
                    .collect::<Vec<_>>()
                    .join(" or "),
            };
            format!("must be {expected}, got {}", json_type(instance))
        }
        ValidationErrorKind::Enum { options } => {
            format!("must be one of {options}, got {}", preview(instance))
        }
        ValidationErrorKind::Constant { expected_value } => {
            format!("must be {expected_value}, got {}", preview(instance))
        }
        ValidationErrorKind::Minimum { limit } => format!("must be >= {limit}, got {instance}"),
        ValidationErrorKind::Maximum { limit } => format!("must be <= {limit}, got {instance}"),
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            format!("must be > {limit}, got {instance}")
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            format!("must be < {limit}, got {instance}")
        }
        ValidationErrorKind::MaxLength { limit } => format!(
            "is too long: at most {limit} characters, got {}",
            instance.as_str().map_or(0, |s| s.chars().count())
        ),
        ValidationErrorKind::MinLength { limit } => {
            format!("must have at least {limit} characters")
        }
        ValidationErrorKind::MaxItems { limit } => format!(
            "has too many items: at most {limit}, got {}",
            instance.as_array().map_or(0, Vec::len)
        ),
        ValidationErrorKind::MinItems { limit } => format!("must have at least {limit} item(s)"),
        _ => truncate(&error.to_string(), 200),
    };
    (field, message)
}

/// The properties declared next to the `additionalProperties` keyword that refused a name.
fn known_properties(schema: &Value, keyword: &Location) -> String {
    let pointer = keyword.as_str();
    let parent = pointer
        .strip_suffix("/additionalProperties")
        .unwrap_or(pointer);
    let names: Vec<&str> = schema
        .pointer(&format!("{parent}/properties"))
        .and_then(Value::as_object)
        .map(|props| props.keys().map(String::as_str).collect())
        .unwrap_or_default();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

fn dotted(location: &Location) -> String {
    let mut out = String::new();
    for segment in location {
        match segment {
            LocationSegment::Property(name) => push_key(&mut out, &name),
            LocationSegment::Index(index) => push_index(&mut out, index),
        }
    }
    out
}

fn push_key(path: &mut String, key: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(key);
}

fn push_index(path: &mut String, index: usize) {
    path.push_str(&format!("[{index}]"));
}

pub(crate) fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A value shown in a message, cut to a readable length.
fn preview(value: &Value) -> String {
    truncate(&value.to_string(), 60)
}

fn truncate(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}
