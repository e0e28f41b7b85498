//! A form asked as a question per field, for a front end without a form card (the terminal):
//! first whether to answer at all (Answer / Decline / Cancel), then each field in turn, asked
//! again while the answer does not fit.

use hearth_protocol::{Language, Text};
use serde_json::{Map, Value};

use super::{check_value, FieldKind, Form, FormChoice, FormField, FormReply};
use crate::conversation::{Conversation, Question, Reply};

/// Tries at a field before the form is cancelled.
const TRIES: usize = 3;

/// The first question, whether to answer at all, worded in `language`.
fn opening(form: &Form, language: Language) -> Question {
    let names: Vec<&str> = form.fields.iter().map(|f| f.label.as_str()).collect();
    let separator = match language {
        Language::En => ", ",
        Language::ZhCn => "、",
    };
    Question {
        question: Text::FormOpening {
            source: &form.source,
            message: &form.message,
            fields: &names.join(separator),
        }
        .in_language(language),
        options: [Text::FormAnswer, Text::FormDecline, Text::FormCancel]
            .iter()
            .map(|t| t.in_language(language))
            .collect(),
    }
}

/// The question for `field`, worded in `language`, with its answers as options (its default,
/// its choices, and "leave out" when it is optional).
fn field_question(field: &FormField, language: Language) -> Question {
    let mut options = match &field.kind {
        FieldKind::Boolean => vec![
            Text::FormYes.in_language(language),
            Text::FormNo.in_language(language),
        ],
        FieldKind::Choice { options } | FieldKind::Choices { options, .. } => {
            options.iter().map(|o| o.label.clone()).collect()
        }
        FieldKind::Text { .. } | FieldKind::Number { .. } => match &field.default {
            Some(Value::String(s)) => vec![s.clone()],
            Some(other) => vec![other.to_string()],
            None => Vec::new(),
        },
    };
    if !field.required {
        options.push(Text::FormLeaveOut.in_language(language));
    }
    let mut question = Text::FormField {
        label: &field.label,
        required: field.required,
    }
    .in_language(language);
    if let Some(description) = &field.description {
        let colon = match language {
            Language::En => ": ",
            Language::ZhCn => "：",
        };
        question.push_str(&format!("{colon}{description}"));
    }
    Question { question, options }
}

/// Asks `form` through `conversation`'s questions in `language`: whether to answer, then each
/// field.
pub async fn ask_fields<C: Conversation + ?Sized>(
    conversation: &C,
    language: Language,
    form: &Form,
) -> FormReply {
    let answer = Text::FormAnswer.in_language(language);
    let decline = Text::FormDecline.in_language(language);
    match conversation.ask(opening(form, language)).await {
        Reply::Answered(a) if a == answer => {}
        Reply::Answered(a) if a == decline => return FormReply::Declined,
        Reply::Answered(_) | Reply::NoAnswer => return FormReply::Cancelled,
        Reply::Unavailable => return FormReply::Unavailable,
    }
    let mut content = Map::new();
    for field in &form.fields {
        match ask_field(conversation, language, field).await {
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
    language: Language,
    field: &FormField,
) -> Result<Option<Value>, FormReply> {
    let question = field_question(field, language);
    let skip = Text::FormLeaveOut.in_language(language);
    for _ in 0..TRIES {
        let answer = match conversation.ask(question.clone()).await {
            Reply::Answered(answer) => answer,
            Reply::NoAnswer => return Err(FormReply::Cancelled),
            Reply::Unavailable => return Err(FormReply::Unavailable),
        };
        if answer == skip && !field.required {
            return Ok(None);
        }
        let value = parse(&field.kind, answer.trim());
        if let Some(value) = value.filter(|v| check_value(field, v).is_ok()) {
            return Ok(Some(value));
        }
    }
    Err(FormReply::Cancelled)
}

/// `answer` as a value of `kind` (a choice by its label or its value), or `None` when it is not
/// one; its limits are [`check_value`]'s.
fn parse(kind: &FieldKind, answer: &str) -> Option<Value> {
    let choice = |options: &[FormChoice], answer: &str| {
        options
            .iter()
            .find(|o| o.label == answer || o.value == answer)
            .map(|o| Value::String(o.value.clone()))
    };
    match kind {
        FieldKind::Text { .. } => Some(Value::String(answer.to_string())),
        FieldKind::Number { integer: true, .. } => answer.parse::<i64>().ok().map(Value::from),
        FieldKind::Number { integer: false, .. } => answer
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number),
        FieldKind::Boolean => match answer.to_lowercase().as_str() {
            "yes" | "y" | "true" | "是" => Some(Value::Bool(true)),
            "no" | "n" | "false" | "否" => Some(Value::Bool(false)),
            _ => None,
        },
        FieldKind::Choice { options } => choice(options, answer),
        FieldKind::Choices { options, .. } => answer
            .split([',', '，'])
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(|a| choice(options, a))
            .collect::<Option<Vec<Value>>>()
            .filter(|chosen| !chosen.is_empty())
            .map(Value::Array),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn form() -> Form {
        let field = |name: &str, kind, required, default| FormField {
            name: name.into(),
            label: name.into(),
            description: None,
            kind,
            required,
            default,
        };
        Form {
            source: "everything".into(),
            message: "Tell me".into(),
            fields: vec![
                FormField {
                    description: Some("Who you are".into()),
                    ..field("name", FieldKind::text(), true, None)
                },
                field("verified", FieldKind::Boolean, false, Some(json!(true))),
            ],
        }
    }

    #[test]
    fn a_form_is_asked_in_english_and_in_chinese() {
        let form = form();
        let english = opening(&form, Language::En);
        assert_eq!(
            english.question,
            "`everything` asks: Tell me\n(fields: name, verified)"
        );
        assert_eq!(english.options, ["Answer", "Decline", "Cancel"]);
        let chinese = opening(&form, Language::ZhCn);
        assert_eq!(
            chinese.question,
            "`everything` 请求：Tell me\n（字段：name、verified）"
        );
        assert_eq!(chinese.options, ["填写", "拒绝", "取消"]);

        let name = field_question(&form.fields[0], Language::En);
        assert_eq!(name.question, "name (required): Who you are");
        assert!(name.options.is_empty());
        assert_eq!(
            field_question(&form.fields[0], Language::ZhCn).question,
            "name（必填）：Who you are"
        );
        let verified = field_question(&form.fields[1], Language::En);
        assert_eq!(verified.question, "verified");
        assert_eq!(verified.options, ["yes", "no", "(leave out)"]);
        let verified = field_question(&form.fields[1], Language::ZhCn);
        assert_eq!(verified.options, ["是", "否", "（不填）"]);
        // Each language's yes/no is understood as the answer.
        assert_eq!(parse(&FieldKind::Boolean, "否"), Some(json!(false)));
        assert_eq!(parse(&FieldKind::Boolean, "yes"), Some(json!(true)));
    }
}
