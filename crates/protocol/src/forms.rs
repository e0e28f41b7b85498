//! A form a tool call asks the user to fill in (an MCP server's `elicitation/create`): its
//! fields, what each takes, and the answer the form card sends back.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

/// A form from `source` (e.g. an MCP server's name) with its message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Form {
    pub source: String,
    pub message: String,
    pub fields: Vec<FormField>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct FormField {
    /// The key of the answer.
    pub name: String,
    /// What to show (the schema's title, else the name).
    pub label: String,
    pub description: Option<String>,
    pub kind: FieldKind,
    pub required: bool,
    /// The value a field left out takes.
    pub default: Option<Value>,
}

/// What a field takes, with its limits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FieldKind {
    Text {
        format: Option<TextFormat>,
        min_length: Option<u32>,
        max_length: Option<u32>,
    },
    /// A number; `integer` when only whole numbers are accepted.
    Number {
        integer: bool,
        minimum: Option<f64>,
        maximum: Option<f64>,
    },
    Boolean,
    /// One of these values.
    Choice {
        options: Vec<FormChoice>,
    },
    /// Some of these values.
    Choices {
        options: Vec<FormChoice>,
        min_items: Option<u32>,
        max_items: Option<u32>,
    },
}

impl FieldKind {
    /// Free text with no format or limits.
    pub fn text() -> FieldKind {
        FieldKind::Text {
            format: None,
            min_length: None,
            max_length: None,
        }
    }
}

/// A value to choose, with what to show for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct FormChoice {
    pub value: String,
    pub label: String,
}

/// The formats a text field may ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum TextFormat {
    Email,
    Uri,
    Date,
    DateTime,
}

/// The form card's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum FormAnswer {
    /// Filled in; fields left out are absent.
    Accept {
        content: Map<String, Value>,
    },
    Decline,
    Cancel,
}
