//! Elicitation (form mode): a server's `elicitation/create` during a tool call is asked of the
//! person behind that call — its requested schema turned into a [`Form`] (string with its
//! format and length, number and integer with their range, boolean, single and multiple choice
//! with their titles; required; defaults), the answer checked and the defaults of fields left
//! out applied, and Accept / Decline / Cancel sent back. With nobody to ask (a job run under
//! `daemon`, no window or terminal, no call in progress) it is declined and the reason logged.
//! URL mode is not offered (Hearth advertises form mode only), so such a request is declined.

use std::sync::{Arc, Mutex};

use hearth_tools::{
    check_form, Conversation, FieldKind, Form, FormChoice, FormField, FormReply, TextFormat,
};
use rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction};
use serde_json::Value;

use crate::log::ServerLog;

/// The conversation of one call in progress (`None`: nobody to ask), by its number.
type Call = (u64, Option<Arc<dyn Conversation>>);

/// The conversations of a server's calls in progress, newest last: an elicitation goes to the
/// newest (the call that is waiting on it, as a server asks during a call).
#[derive(Default)]
pub(crate) struct Asking {
    calls: Mutex<Vec<Call>>,
    next: Mutex<u64>,
}

/// Takes a call's conversation off [`Asking`] when the call ends.
pub(crate) struct AskingGuard {
    asking: Arc<Asking>,
    id: u64,
}

impl Drop for AskingGuard {
    fn drop(&mut self) {
        if let Ok(mut calls) = self.asking.calls.lock() {
            calls.retain(|(id, _)| *id != self.id);
        }
    }
}

impl Asking {
    /// Records a call in progress with the conversation of its turn (`None`: nobody to ask).
    pub fn during(self: &Arc<Self>, conversation: Option<Arc<dyn Conversation>>) -> AskingGuard {
        let id = self
            .next
            .lock()
            .map(|mut next| {
                *next += 1;
                *next
            })
            .unwrap_or(0);
        if let Ok(mut calls) = self.calls.lock() {
            calls.push((id, conversation));
        }
        AskingGuard {
            asking: self.clone(),
            id,
        }
    }

    fn newest(&self) -> Option<Option<Arc<dyn Conversation>>> {
        self.calls
            .lock()
            .ok()
            .and_then(|calls| calls.last().map(|(_, c)| c.clone()))
    }
}

/// Answers `request` of `server`.
pub(crate) async fn answer(
    server: &str,
    asking: &Asking,
    log: &ServerLog,
    request: ElicitRequestParams,
) -> ElicitResult {
    let (message, schema) = match request {
        ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } => (
            message,
            serde_json::to_value(&requested_schema).unwrap_or(Value::Null),
        ),
        _ => {
            log.line("hearth: elicitation declined: only form mode is supported");
            return ElicitResult::new(ElicitationAction::Decline);
        }
    };
    let form = form_of(server, &message, &schema);
    let conversation = match asking.newest() {
        Some(Some(conversation)) => conversation,
        Some(None) => {
            log.line("hearth: elicitation declined: nobody can answer here (an unattended run, or no window or terminal)");
            return ElicitResult::new(ElicitationAction::Decline);
        }
        None => {
            log.line("hearth: elicitation declined: no call in progress to ask for");
            return ElicitResult::new(ElicitationAction::Decline);
        }
    };
    match conversation.fill(form.clone()).await {
        FormReply::Accepted(content) => match check_form(&form, content) {
            Ok(content) => {
                log.line("hearth: elicitation accepted");
                ElicitResult::new(ElicitationAction::Accept).with_content(Value::Object(content))
            }
            Err(problem) => {
                log.line(&format!("hearth: elicitation cancelled: {problem}"));
                ElicitResult::new(ElicitationAction::Cancel)
            }
        },
        FormReply::Declined => {
            log.line("hearth: elicitation declined by the user");
            ElicitResult::new(ElicitationAction::Decline)
        }
        FormReply::Cancelled => {
            log.line("hearth: elicitation cancelled (dismissed or not answered in time)");
            ElicitResult::new(ElicitationAction::Cancel)
        }
        FormReply::Unavailable => {
            log.line("hearth: elicitation declined: nobody can answer here (an unattended run, or no window or terminal)");
            ElicitResult::new(ElicitationAction::Decline)
        }
    }
}

/// The form a requested schema describes (properties in the schema's order).
pub(crate) fn form_of(server: &str, message: &str, schema: &Value) -> Form {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let fields = schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, property)| FormField {
            name: name.clone(),
            label: property["title"].as_str().unwrap_or(name).to_string(),
            description: property["description"].as_str().map(str::to_string),
            kind: kind_of(property),
            required: required.contains(&name.as_str()),
            default: property.get("default").filter(|v| !v.is_null()).cloned(),
        })
        .collect();
    Form {
        source: server.to_string(),
        message: message.to_string(),
        fields,
    }
}

/// The choices of an `enum` (titled by a legacy `enumNames`), or of `oneOf` / `anyOf` `const`s
/// with their `title`s.
fn choices(schema: &Value) -> Vec<FormChoice> {
    let choice = |value: &str, title: Option<&str>| FormChoice {
        value: value.to_string(),
        label: title.unwrap_or(value).to_string(),
    };
    if let Some(values) = schema["enum"].as_array() {
        let names = schema["enumNames"].as_array();
        return values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| {
                let title = names.and_then(|n| n.get(i)).and_then(Value::as_str);
                v.as_str().map(|v| choice(v, title))
            })
            .collect();
    }
    schema["oneOf"]
        .as_array()
        .or_else(|| schema["anyOf"].as_array())
        .into_iter()
        .flatten()
        .filter_map(|c| c["const"].as_str().map(|v| choice(v, c["title"].as_str())))
        .collect()
}

/// A schema's whole-number limit (`minLength`, `maxItems`…).
fn count(schema: &Value, key: &str) -> Option<u32> {
    schema[key].as_u64().and_then(|n| u32::try_from(n).ok())
}

fn kind_of(property: &Value) -> FieldKind {
    let one = choices(property);
    if !one.is_empty() {
        return FieldKind::Choice { options: one };
    }
    let number = |integer| FieldKind::Number {
        integer,
        minimum: property["minimum"].as_f64(),
        maximum: property["maximum"].as_f64(),
    };
    match property["type"].as_str() {
        Some("array") => FieldKind::Choices {
            options: choices(&property["items"]),
            min_items: count(property, "minItems"),
            max_items: count(property, "maxItems"),
        },
        Some("number") => number(false),
        Some("integer") => number(true),
        Some("boolean") => FieldKind::Boolean,
        _ => FieldKind::Text {
            format: match property["format"].as_str() {
                Some("email") => Some(TextFormat::Email),
                Some("uri") => Some(TextFormat::Uri),
                Some("date") => Some(TextFormat::Date),
                Some("date-time") => Some(TextFormat::DateTime),
                _ => None,
            },
            min_length: count(property, "minLength"),
            max_length: count(property, "maxLength"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Map};

    #[test]
    fn a_schema_becomes_a_form_and_defaults_fill_what_was_left_out() {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string", "title": "Your name", "default": "John Doe"},
            "age": {"type": "integer", "default": 30, "minimum": 0},
            "score": {"type": "number", "default": 95.5, "maximum": 100},
            "status": {"type": "string", "enum": ["active", "inactive"],
                       "enumNames": ["Active"], "default": "active"},
            "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"},
                                                  {"const": "l", "title": "Large"}]},
            "tags": {"type": "array", "minItems": 1, "maxItems": 2, "items":
                     {"anyOf": [{"const": "a", "title": "Alpha"}, {"const": "b"}]}},
            "verified": {"type": "boolean", "default": true},
            "note": {"type": "string"},
            "email": {"type": "string", "description": "Where to write", "format": "email",
                      "minLength": 3}
        }, "required": ["email"]});
        let form = form_of("s", "Tell me", &schema);
        let name = form.fields.iter().find(|f| f.name == "name").unwrap();
        assert_eq!(name.label, "Your name");
        let kind = |n: &str| {
            form.fields
                .iter()
                .find(|f| f.name == n)
                .unwrap()
                .kind
                .clone()
        };
        assert_eq!(
            kind("age"),
            FieldKind::Number {
                integer: true,
                minimum: Some(0.0),
                maximum: None
            }
        );
        assert_eq!(
            kind("score"),
            FieldKind::Number {
                integer: false,
                minimum: None,
                maximum: Some(100.0)
            }
        );
        assert_eq!(kind("verified"), FieldKind::Boolean);
        let choice = |value: &str, label: &str| FormChoice {
            value: value.into(),
            label: label.into(),
        };
        assert_eq!(
            kind("status"),
            FieldKind::Choice {
                options: vec![choice("active", "Active"), choice("inactive", "inactive")]
            }
        );
        assert_eq!(
            kind("size"),
            FieldKind::Choice {
                options: vec![choice("s", "Small"), choice("l", "Large")]
            }
        );
        assert_eq!(
            kind("tags"),
            FieldKind::Choices {
                options: vec![choice("a", "Alpha"), choice("b", "b")],
                min_items: Some(1),
                max_items: Some(2)
            }
        );
        assert_eq!(
            kind("email"),
            FieldKind::Text {
                format: Some(TextFormat::Email),
                min_length: Some(3),
                max_length: None
            }
        );
        assert!(
            form.fields
                .iter()
                .find(|f| f.name == "email")
                .unwrap()
                .required
        );

        assert_eq!(
            check_form(&form, Map::new()).map_err(|p| p.to_string()),
            Err("`email` is required".to_string())
        );
        let mut given = Map::new();
        given.insert("email".into(), json!("a@b.c"));
        given.insert("age".into(), json!(41));
        let done = check_form(&form, given).unwrap();
        assert_eq!(
            Value::Object(done),
            json!({"email": "a@b.c", "age": 41, "name": "John Doe", "score": 95.5,
                   "status": "active", "verified": true})
        );
    }
}
