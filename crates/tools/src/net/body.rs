//! Turning a fetched response into JSON for the model: headers as an object, the body parsed
//! as JSON when it is JSON, decoded as text when it is text, base64 otherwise.

use super::client::{Fetched, MAX_BODY_BYTES};
use base64::Engine as _;
use serde_json::{Map, Value};

/// The decoded body.
pub(crate) enum Decoded {
    Json(Value),
    Text(String),
    Binary,
}

/// Headers as `name → value`, repeated headers joined with `, `.
pub(crate) fn headers_json(fetched: &Fetched) -> Value {
    let mut map = Map::new();
    for name in fetched.headers.keys() {
        let values: Vec<String> = fetched
            .headers
            .get_all(name)
            .iter()
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
            .collect();
        map.insert(name.as_str().to_string(), Value::String(values.join(", ")));
    }
    Value::Object(map)
}

fn is_json_type(media_type: &str) -> bool {
    media_type == "application/json" || media_type.ends_with("+json")
}

fn is_text_type(media_type: &str) -> bool {
    media_type.starts_with("text/")
        || is_json_type(media_type)
        || media_type.ends_with("+xml")
        || matches!(
            media_type,
            "application/xml"
                | "application/javascript"
                | "application/x-www-form-urlencoded"
                | "application/x-ndjson"
        )
}

/// The body as text, decoded with its declared charset (UTF-8 by default). `None` for binary
/// content. A multi-byte character cut by truncation is dropped.
fn body_text(fetched: &Fetched) -> Option<String> {
    let media_type = fetched.media_type();
    let declared = fetched
        .header("content-type")
        .split(';')
        .skip(1)
        .find_map(|param| {
            let (key, value) = param.split_once('=')?;
            key.trim()
                .eq_ignore_ascii_case("charset")
                .then(|| value.trim().trim_matches('"').to_string())
        });
    if let Some(encoding) = declared
        .as_deref()
        .and_then(|label| encoding_rs::Encoding::for_label(label.as_bytes()))
        .filter(|encoding| *encoding != encoding_rs::UTF_8)
    {
        let (text, _, _) = encoding.decode(&fetched.body);
        return Some(text.into_owned());
    }
    let text = match std::str::from_utf8(&fetched.body) {
        Ok(text) => text,
        // Only an incomplete character at the very end (a truncated body) is forgiven.
        Err(e) if fetched.truncated && e.error_len().is_none() => {
            std::str::from_utf8(&fetched.body[..e.valid_up_to()]).ok()?
        }
        Err(_) => return None,
    };
    let binary_type = ["image/", "audio/", "video/", "font/"]
        .iter()
        .any(|prefix| media_type.starts_with(prefix))
        || matches!(
            media_type.as_str(),
            "application/octet-stream" | "application/pdf" | "application/zip"
        );
    let nul_in_untyped = !is_text_type(&media_type) && text.contains('\0');
    (!binary_type && !nul_in_untyped).then(|| text.to_string())
}

/// Decodes the body: JSON when declared (or undeclared and parseable) and complete, else text,
/// else binary.
pub(crate) fn decode(fetched: &Fetched) -> Decoded {
    let media_type = fetched.media_type();
    let Some(text) = body_text(fetched) else {
        return Decoded::Binary;
    };
    let may_be_json = is_json_type(&media_type)
        || (media_type.is_empty() && matches!(text.trim_start().chars().next(), Some('{' | '[')));
    if may_be_json && !fetched.truncated {
        if let Ok(value) = serde_json::from_str::<Value>(&text) {
            return Decoded::Json(value);
        }
    }
    Decoded::Text(text)
}

/// Adds the `body` field of an `http_request` result (and `body_encoding`, `truncated`);
/// returns notes for the model about it.
pub(crate) fn body_fields(fetched: &Fetched, result: &mut Map<String, Value>) -> Vec<String> {
    let mut notes = Vec::new();
    let body = match decode(fetched) {
        Decoded::Json(value) => value,
        Decoded::Text(text) => Value::String(text),
        Decoded::Binary => {
            result.insert("body_encoding".into(), Value::String("base64".into()));
            notes.push(format!(
                "the body is binary ({}, {} bytes), given as base64",
                match fetched.media_type().as_str() {
                    "" => "no content-type",
                    other => other,
                },
                fetched.body.len()
            ));
            Value::String(base64::engine::general_purpose::STANDARD.encode(&fetched.body))
        }
    };
    if fetched.truncated {
        result.insert("truncated".into(), Value::Bool(true));
        notes.push(format!(
            "the body is longer than {MAX_BODY_BYTES} bytes; only the first {MAX_BODY_BYTES} \
             were read"
        ));
    }
    result.insert("body".into(), body);
    notes
}
