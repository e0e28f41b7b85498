//! The tool error the model reads: `{"error": {"kind": "...", "message": "...", "field"?: "..."}}`.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::fmt;

/// What went wrong with a call, for the model to act on; `cancelled` means the user stopped the
/// turn and `internal` a bug or an I/O failure of Hearth itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    InvalidArguments,
    NotPermitted,
    DeniedByUser,
    NotFound,
    TooLarge,
    Timeout,
    RateLimited,
    Network,
    BlockedAddress,
    DeliveryFailed,
    Unavailable,
    Cancelled,
    /// The tool ran and reported a failure (e.g. an MCP result with `isError`).
    Failed,
    Internal,
}

impl ErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidArguments => "invalid_arguments",
            Self::NotPermitted => "not_permitted",
            Self::DeniedByUser => "denied_by_user",
            Self::NotFound => "not_found",
            Self::TooLarge => "too_large",
            Self::Timeout => "timeout",
            Self::RateLimited => "rate_limited",
            Self::Network => "network",
            Self::BlockedAddress => "blocked_address",
            Self::DeliveryFailed => "delivery_failed",
            Self::Unavailable => "unavailable",
            Self::Cancelled => "cancelled",
            Self::Failed => "failed",
            Self::Internal => "internal",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

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
