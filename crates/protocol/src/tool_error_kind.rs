//! What went wrong with a tool call: the kind of error the model reads in
//! `{"error": {"kind", "message", "field"?}}` and the tool card shows in the user's language.

use serde::{Deserialize, Serialize};
use std::fmt;
use ts_rs::TS;

/// What went wrong with a call, for the model to act on; `cancelled` means the user stopped the
/// turn and `internal` a bug or an I/O failure of Hearth itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum ToolErrorKind {
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

impl ToolErrorKind {
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

impl fmt::Display for ToolErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
