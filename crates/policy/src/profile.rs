//! Tool profiles (which tools the model sees) and security profiles (the run shape). The two
//! enums are enumerated settings, declared in `hearth-protocol`; which profile exposes a tool is
//! its catalogue entry's.

use crate::catalogue::canonical_tool;
pub use hearth_protocol::{SecurityProfile, ToolProfile};

/// The smallest profile that exposes the canonical tool `name`, as its catalogue entry says.
/// Anything not in the catalogue (every `mcp__*` tool, unknown names) is `full` only.
pub fn smallest_exposing(name: &str) -> ToolProfile {
    canonical_tool(name).map_or(ToolProfile::Full, |tool| tool.profile)
}

/// Whether `profile` exposes the canonical tool `tool_name` to the model.
pub fn exposed(profile: ToolProfile, tool_name: &str) -> bool {
    profile >= smallest_exposing(tool_name)
}
