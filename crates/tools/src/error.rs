//! The tool error the model reads: `{"error": {"kind": "...", "message": "...", "field"?: "..."}}`.

use hearth_store::DbError;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// What went wrong with a call (declared in `hearth-protocol`, which the tool card reads too).
pub use hearth_protocol::ToolErrorKind as ErrorKind;

/// A failed tool call, returned to the model as a result (never a panic).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{kind}: {message}")]
pub struct ToolError {
    pub kind: ErrorKind,
    pub message: String,
    /// The argument at fault (dotted path such as `values[2]`), for `invalid_arguments`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

impl ToolError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            field: None,
        }
    }

    /// `invalid_arguments` naming the field at fault.
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            kind: ErrorKind::InvalidArguments,
            message: message.into(),
            field: Some(field.into()),
        }
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Internal, message)
    }

    /// The JSON the model sees.
    pub fn to_json(&self) -> Value {
        json!({ "error": self })
    }
}

/// Database work that did not come back (it panicked, or the runtime is shutting down) is
/// Hearth's own failure, not the model's: `internal`, and the same call may succeed later.
impl From<DbError> for ToolError {
    fn from(error: DbError) -> ToolError {
        ToolError::internal(error.to_string())
    }
}
