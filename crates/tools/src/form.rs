//! A form a call asks the user to fill in (an MCP server's `elicitation/create`): its fields
//! (text, number, yes/no, a choice; required or not, with defaults), and how it ended. A front
//! end without a form of its own asks it as a question per field ([`ask_fields`]): first
//! whether to answer at all (Answer / Decline / Cancel), then each field in turn.

use serde_json::{Map, Value};

use crate::conversation::{Conversation, Question, Reply};

/// What a field takes.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldKind {
    Text,
    /// A number; `integer` when only whole numbers are accepted.
    Number {
        integer: bool,
    },
    Boolean,
    /// One of these values.
    Choice(Vec<String>),
    /// Some of these values (answered separated by commas).
    Choices(Vec<String>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct FormField {
    /// The key of the answer.
    pub name: String,
    /// What to show (the schema's title, else the name).
    pub label: String,
    pub description: Option<String>,
    pub kind: FieldKind,
    pub required: bool,
    pub default: Option<Value>,
}

/// A form from `source` (e.g. an MCP server's name) with its message.
#[derive(Debug, Clone, PartialEq)]
pub struct Form {
    pub source: String,
    pub message: String,
    pub fields: Vec<FormField>,
}

/// How a form ended.
#[derive(Debug, Clone, PartialEq)]
pub enum FormReply {
    /// Filled in (fields left out take their defaults later).
    Accepted(Map<String, Value>),
    /// The user said no.
    Declined,
    /// The user dismissed it, or nobody answered in time.
    Cancelled,
    /// Nobody can answer here (no window, no terminal, an unattended run).
    Unavailable,
}

/// The first question's answers.
const ANSWER: &str = "Answer";
const DECLINE: &str = "Decline";
const CANCEL: &str = "Cancel";
/// The answer that leaves an optional field out (its default, if any, applies).
const SKIP: &str = "(leave out)";
/// Tries at a field before the form is cancelled.
const TRIES: usize = 3;

/// Asks `form` through `conversation`'s questions: whether to answer, then each field.
pub async fn ask_fields<C: Conversation + ?Sized>(conversation: &C, form: &Form) -> FormReply {
    let names: Vec<&str> = form.fields.iter().map(|f| f.label.as_str()).collect();
    let opening = Question {
        question: format!(
            "`{}` asks: {}\n(fields: {})",
            form.source,
            form.message,
            names.join(", ")
        ),
        options: vec![ANSWER.into(), DECLINE.into(), CANCEL.into()],
    };
    match conversation.ask(opening).await {
        Reply::Answered(answer) if answer == ANSWER => {}
        Reply::Answered(answer) if answer == DECLINE => return FormReply::Declined,
        Reply::Answered(_) | Reply::NoAnswer => return FormReply::Cancelled,
        Reply::Unavailable => return FormReply::Unavailable,
    }
    let mut content = Map::new();
    for field in &form.fields {
        match ask_field(conversation, field).await {
            Ok(Some(value)) => {
                content.insert(field.name.clone(), value);
            }
            Ok(None) => {}
            Err(reply) => return reply,
        }
    }
    FormReply::Accepted(content)
}

/// One field's value (`None`: left out), asked again while the answer does not fit.
async fn ask_field<C: Conversation + ?Sized>(
    conversation: &C,
    field: &FormField,
) -> Result<Option<Value>, FormReply> {
    let mut options = match &field.kind {
        FieldKind::Boolean => vec!["yes".to_string(), "no".to_string()],
        FieldKind::Choice(values) | FieldKind::Choices(values) => values.clone(),
        FieldKind::Text | FieldKind::Number { .. } => match &field.default {
            Some(Value::String(s)) => vec![s.clone()],
            Some(other) => vec![other.to_string()],
            None => Vec::new(),
        },
    };
    if !field.required {
        options.push(SKIP.to_string());
    }
    let mut question = format!(
        "{}{}",
        field.label,
        if field.required { " (required)" } else { "" }
    );
    if let Some(description) = &field.description {
        question.push_str(&format!(": {description}"));
    }
    for _ in 0..TRIES {
        let answer = match conversation
            .ask(Question {
                question: question.clone(),
                options: options.clone(),
            })
            .await
        {
            Reply::Answered(answer) => answer,
            Reply::NoAnswer => return Err(FormReply::Cancelled),
            Reply::Unavailable => return Err(FormReply::Unavailable),
        };
        if answer == SKIP && !field.required {
            return Ok(None);
        }
        if let Some(value) = parse(&field.kind, answer.trim()) {
            return Ok(Some(value));
        }
    }
    Err(FormReply::Cancelled)
}

/// `answer` as a value of `kind`, or `None` when it does not fit.
pub fn parse(kind: &FieldKind, answer: &str) -> Option<Value> {
    match kind {
        FieldKind::Text => Some(Value::String(answer.to_string())),
        FieldKind::Number { integer: true } => answer.parse::<i64>().ok().map(Value::from),
        FieldKind::Number { integer: false } => answer
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number),
        FieldKind::Boolean => match answer.to_lowercase().as_str() {
            "yes" | "y" | "true" | "是" => Some(Value::Bool(true)),
            "no" | "n" | "false" | "否" => Some(Value::Bool(false)),
            _ => None,
        },
        FieldKind::Choice(values) => values
            .iter()
            .find(|v| *v == answer)
            .map(|v| Value::String(v.clone())),
        FieldKind::Choices(values) => answer
            .split([',', '，'])
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(|a| {
                values
                    .iter()
                    .find(|v| *v == a)
                    .map(|v| Value::String(v.clone()))
            })
            .collect::<Option<Vec<Value>>>()
            .filter(|chosen| !chosen.is_empty())
            .map(Value::Array),
    }
}
