//! A form a call asks the user to fill in (an MCP server's `elicitation/create`): how it ended,
//! the answer checked against its fields ([`check`]), and for a front end without a form card
//! of its own, a question per field ([`ask_fields`]).

mod ask;
mod check;

pub use ask::ask_fields;
use check::check_value;
pub use check::{check, FormProblem};
pub use hearth_protocol::{FieldKind, Form, FormAnswer, FormChoice, FormField, TextFormat};

use serde_json::{Map, Value};

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

impl From<FormAnswer> for FormReply {
    fn from(answer: FormAnswer) -> FormReply {
        match answer {
            FormAnswer::Accept { content } => FormReply::Accepted(content),
            FormAnswer::Decline => FormReply::Declined,
            FormAnswer::Cancel => FormReply::Cancelled,
        }
    }
}
