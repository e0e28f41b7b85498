//! The tool errors the browser gives, from CDP failures and launch problems.

use crate::cdp::CdpFailure;
use hearth_tools::{ErrorKind, ToolError};

/// A CDP command that failed while acting on the page.
pub fn cdp(error: CdpFailure) -> ToolError {
    ToolError::new(
        ErrorKind::Failed,
        format!("the browser could not do it ({error})"),
    )
}

/// An element ref that no longer resolves.
pub fn gone(reference: &str) -> ToolError {
    ToolError::new(
        ErrorKind::NotFound,
        format!("ref {reference} is not on the page any more: take a new snapshot"),
    )
}
