//! Elicitation (form mode): a server's `elicitation/create` during a tool call is asked of the
//! person behind that call — its requested schema turned into a [`Form`] (string, number,
//! integer, boolean, enum; required; defaults), the answer checked, the defaults of fields left
//! out applied, and Accept / Decline / Cancel sent back. With nobody to ask (a job run under
//! `daemon`, no window or terminal, no call in progress) it is declined and the reason logged.
//! URL mode is not offered (Hearth advertises form mode only), so such a request is declined.

use std::sync::{Arc, Mutex};

use hearth_tools::{Conversation, FieldKind, Form, FormField, FormReply};
use rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction};
use serde_json::{Map, Value};

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
        FormReply::Accepted(content) => match completed(&form, content) {
            Ok(content) => {
                log.line("hearth: elicitation accepted");
                ElicitResult::new(ElicitationAction::Accept).with_content(Value::Object(content))
            }
            Err(missing) => {
                log.line(&format!(
                    "hearth: elicitation cancelled: required field `{missing}` left empty"
                ));
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

/// The values of an `enum`, or of `oneOf` / `anyOf` `const`s.
fn choices(schema: &Value) -> Vec<String> {
    let listed = schema["enum"].as_array().or_else(|| {
        schema["oneOf"]
            .as_array()
            .or_else(|| schema["anyOf"].as_array())
    });
    listed
        .into_iter()
        .flatten()
        .filter_map(|c| c.as_str().or_else(|| c["const"].as_str()))
        .map(str::to_string)
        .collect()
}

fn kind_of(property: &Value) -> FieldKind {
    let one = choices(property);
    if !one.is_empty() {
        return FieldKind::Choice(one);
    }
    match property["type"].as_str() {
        Some("array") => FieldKind::Choices(choices(&property["items"])),
        Some("number") => FieldKind::Number { integer: false },
        Some("integer") => FieldKind::Number { integer: true },
        Some("boolean") => FieldKind::Boolean,
        _ => FieldKind::Text,
    }
}

/// `content` with the defaults of the fields left out; the first required field still
/// missing is the error.
pub(crate) fn completed(
    form: &Form,
    mut content: Map<String, Value>,
) -> Result<Map<String, Value>, String> {
    for field in &form.fields {
        if content.contains_key(&field.name) {
            continue;
        }
        match &field.default {
            Some(default) => {
                content.insert(field.name.clone(), default.clone());
            }
            None if field.required => return Err(field.name.clone()),
            None => {}
        }
    }
    Ok(content)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_schema_becomes_a_form_and_defaults_fill_what_was_left_out() {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string", "title": "Your name", "default": "John Doe"},
            "age": {"type": "integer", "default": 30},
            "score": {"type": "number", "default": 95.5},
            "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
            "verified": {"type": "boolean", "default": true},
            "note": {"type": "string"},
            "email": {"type": "string", "description": "Where to write"}
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
        assert_eq!(kind("age"), FieldKind::Number { integer: true });
        assert_eq!(kind("score"), FieldKind::Number { integer: false });
        assert_eq!(kind("verified"), FieldKind::Boolean);
        assert_eq!(
            kind("status"),
            FieldKind::Choice(vec!["active".into(), "inactive".into()])
        );
        assert!(
            form.fields
                .iter()
                .find(|f| f.name == "email")
                .unwrap()
                .required
        );

        assert_eq!(completed(&form, Map::new()), Err("email".to_string()));
        let mut given = Map::new();
        given.insert("email".into(), json!("a@b.c"));
        given.insert("age".into(), json!(41));
        let done = completed(&form, given).unwrap();
        assert_eq!(
            Value::Object(done),
            json!({"email": "a@b.c", "age": 41, "name": "John Doe", "score": 95.5,
                   "status": "active", "verified": true})
        );
    }
}
