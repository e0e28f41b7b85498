//! The tool error for each refusal of the network guard.

use crate::error::{ErrorKind, ToolError};
use hearth_net::GuardError;

/// The tool error for `error`; `field` names the argument that held the URL.
pub(crate) fn guard_error(error: GuardError, field: &str) -> ToolError {
    match error {
        GuardError::InvalidUrl(message) => ToolError::invalid(field, message),
        GuardError::Blocked(refusal) => ToolError::new(ErrorKind::BlockedAddress, refusal.message),
        GuardError::Resolve(message) => ToolError::new(ErrorKind::Network, message),
    }
}
