//! An answer checked against its form: every value of the type, format and limits its field
//! takes, required fields present, and the defaults of the fields left out filled in.

use chrono::{DateTime, NaiveDate};
use serde_json::{Map, Value};

use super::{FieldKind, Form, FormField, TextFormat};

/// Why an answer does not fit its form (fields named by their labels, as the user sees them).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormProblem {
    #[error("`{0}` is required")]
    Missing(String),
    #[error("`{field}`: {why}")]
    Invalid { field: String, why: String },
    #[error("the form has no field `{0}`")]
    Unknown(String),
}

/// `content` checked against `form`, with the defaults of the fields left out (a field given
/// `null`, or empty text, is left out).
pub fn check(form: &Form, content: Map<String, Value>) -> Result<Map<String, Value>, FormProblem> {
    if let Some(unknown) = content
        .keys()
        .find(|name| !form.fields.iter().any(|f| &f.name == *name))
    {
        return Err(FormProblem::Unknown(unknown.clone()));
    }
    let mut checked = Map::new();
    for field in &form.fields {
        let given = content
            .get(&field.name)
            .filter(|v| !v.is_null() && v.as_str() != Some(""));
        match given {
            Some(value) => {
                check_value(field, value).map_err(|why| FormProblem::Invalid {
                    field: field.label.clone(),
                    why,
                })?;
                checked.insert(field.name.clone(), value.clone());
            }
            None => match &field.default {
                Some(default) => {
                    checked.insert(field.name.clone(), default.clone());
                }
                None if field.required => return Err(FormProblem::Missing(field.label.clone())),
                None => {}
            },
        }
    }
    Ok(checked)
}

/// Whether `value` is one `field` takes; the reason when it is not.
pub fn check_value(field: &FormField, value: &Value) -> Result<(), String> {
    match &field.kind {
        FieldKind::Text {
            format,
            min_length,
            max_length,
        } => {
            let text = value.as_str().ok_or("not text")?;
            if text.is_empty() && field.required {
                return Err("required".into());
            }
            let length = text.chars().count() as u64;
            within(
                length as f64,
                min_length.map(f64::from),
                max_length.map(f64::from),
            )
            .map_err(|bound| format!("{bound} characters"))?;
            match format {
                Some(format) if !fits(*format, text) => Err(format!("not a valid {format:?}")),
                _ => Ok(()),
            }
        }
        FieldKind::Number {
            integer,
            minimum,
            maximum,
        } => {
            let number = value.as_f64().ok_or("not a number")?;
            if *integer && number.fract() != 0.0 {
                return Err("not a whole number".into());
            }
            within(number, *minimum, *maximum)
        }
        FieldKind::Boolean => value
            .as_bool()
            .map(|_| ())
            .ok_or_else(|| "not yes or no".into()),
        FieldKind::Choice { options } => {
            let chosen = value.as_str().ok_or("not a choice")?;
            if options.iter().any(|o| o.value == chosen) {
                Ok(())
            } else {
                Err(format!("`{chosen}` is not one of the choices"))
            }
        }
        FieldKind::Choices {
            options,
            min_items,
            max_items,
        } => {
            let chosen = value.as_array().ok_or("not a list of choices")?;
            for item in chosen {
                let item = item.as_str().ok_or("not a list of choices")?;
                if !options.iter().any(|o| o.value == item) {
                    return Err(format!("`{item}` is not one of the choices"));
                }
            }
            within(
                chosen.len() as f64,
                min_items.map(f64::from),
                max_items.map(f64::from),
            )
            .map_err(|bound| format!("{bound} choices"))
        }
    }
}

/// Whether `value` lies in `minimum..=maximum`; the bound it passes when it does not.
fn within(value: f64, minimum: Option<f64>, maximum: Option<f64>) -> Result<(), String> {
    match (minimum, maximum) {
        (Some(min), _) if value < min => Err(format!("at least {min}")),
        (_, Some(max)) if value > max => Err(format!("at most {max}")),
        _ => Ok(()),
    }
}

/// Whether `text` is written in `format` (dates as RFC 3339 / ISO 8601).
fn fits(format: TextFormat, text: &str) -> bool {
    match format {
        TextFormat::Email => text.split_once('@').is_some_and(|(user, domain)| {
            !user.is_empty()
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !text.chars().any(char::is_whitespace)
                && !domain.contains('@')
        }),
        TextFormat::Uri => url::Url::parse(text).is_ok(),
        TextFormat::Date => NaiveDate::parse_from_str(text, "%Y-%m-%d").is_ok(),
        TextFormat::DateTime => DateTime::parse_from_rfc3339(text).is_ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::form::FormChoice;
    use serde_json::json;

    fn field(name: &str, kind: FieldKind, required: bool, default: Option<Value>) -> FormField {
        FormField {
            name: name.into(),
            label: format!("{name} label"),
            description: None,
            kind,
            required,
            default,
        }
    }

    fn choices(values: &[&str]) -> Vec<FormChoice> {
        values
            .iter()
            .map(|v| FormChoice {
                value: v.to_string(),
                label: v.to_uppercase(),
            })
            .collect()
    }

    fn form() -> Form {
        Form {
            source: "s".into(),
            message: "m".into(),
            fields: vec![
                field(
                    "email",
                    FieldKind::Text {
                        format: Some(TextFormat::Email),
                        min_length: None,
                        max_length: Some(40),
                    },
                    true,
                    None,
                ),
                field(
                    "age",
                    FieldKind::Number {
                        integer: true,
                        minimum: Some(0.0),
                        maximum: Some(150.0),
                    },
                    false,
                    Some(json!(30)),
                ),
                field(
                    "colour",
                    FieldKind::Choice {
                        options: choices(&["red", "blue"]),
                    },
                    false,
                    None,
                ),
                field(
                    "tags",
                    FieldKind::Choices {
                        options: choices(&["a", "b", "c"]),
                        min_items: Some(1),
                        max_items: Some(2),
                    },
                    false,
                    None,
                ),
                field(
                    "when",
                    FieldKind::Text {
                        format: Some(TextFormat::Date),
                        min_length: None,
                        max_length: None,
                    },
                    false,
                    None,
                ),
            ],
        }
    }

    fn content(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn an_answer_that_fits_gets_the_defaults_of_what_was_left_out() {
        let checked = check(
            &form(),
            content(json!({"email": "ada@example.org", "colour": "blue", "tags": ["a", "c"], "when": null})),
        )
        .unwrap();
        assert_eq!(
            Value::Object(checked),
            json!({"email": "ada@example.org", "age": 30, "colour": "blue", "tags": ["a", "c"]})
        );
    }

    #[test]
    fn each_rule_of_a_field_is_checked_and_named() {
        let problem = |value: Value| check(&form(), content(value)).unwrap_err();
        for left_out in [json!({}), json!({"email": ""}), json!({"email": null})] {
            assert_eq!(
                problem(left_out),
                FormProblem::Missing("email label".into())
            );
        }
        assert_eq!(
            problem(json!({"email": "ada"})).to_string(),
            "`email label`: not a valid Email"
        );
        assert_eq!(
            problem(json!({"email": format!("{}@example.org", "a".repeat(40))})).to_string(),
            "`email label`: at most 40 characters"
        );
        let with = |extra: Value| {
            let mut answer = json!({"email": "ada@example.org"});
            answer
                .as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            check(&form(), content(answer))
                .map(|_| ())
                .map_err(|p| p.to_string())
        };
        assert_eq!(
            with(json!({"age": 4.5})),
            Err("`age label`: not a whole number".into())
        );
        assert_eq!(
            with(json!({"age": 151})),
            Err("`age label`: at most 150".into())
        );
        assert_eq!(
            with(json!({"age": "30"})),
            Err("`age label`: not a number".into())
        );
        assert_eq!(
            with(json!({"colour": "RED"})),
            Err("`colour label`: `RED` is not one of the choices".into()),
            "a choice is sent by its value, not its label"
        );
        assert_eq!(
            with(json!({"tags": []})),
            Err("`tags label`: at least 1 choices".into())
        );
        assert_eq!(
            with(json!({"tags": ["a", "b", "c"]})),
            Err("`tags label`: at most 2 choices".into())
        );
        assert_eq!(
            with(json!({"when": "2026-02-30"})),
            Err("`when label`: not a valid Date".into())
        );
        assert_eq!(with(json!({"when": "2026-12-01"})), Ok(()));
        assert_eq!(
            with(json!({"nick": "x"})),
            Err("the form has no field `nick`".into())
        );
    }

    #[test]
    fn formats_are_told_apart() {
        assert!(fits(TextFormat::Uri, "https://example.org/a?b"));
        assert!(!fits(TextFormat::Uri, "example dot org"));
        assert!(fits(TextFormat::DateTime, "2026-12-01T10:30:00+08:00"));
        assert!(!fits(TextFormat::DateTime, "2026-12-01T10:30"));
        assert!(!fits(TextFormat::Email, "a b@example.org"));
        assert!(!fits(TextFormat::Email, "a@example"));
        assert!(fits(TextFormat::Email, "张@例子.中国"));
    }
}
