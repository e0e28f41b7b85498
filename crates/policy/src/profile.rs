//! Tool profiles (which tools the model sees) and security profiles (the run shape), SPEC §4.

pub use hearth_protocol::{SecurityProfile, ToolProfile};

/// Tools in `minimal` (Echo's list plus Hearth's additions).
const MINIMAL: &[&str] = &[
    "agents_list",
    "agents_route",
    "artifact_append",
    "artifact_create",
    "artifact_deliver",
    "artifact_finalize",
    "artifact_validate",
    "clarify",
    "knowledge_search",
    "list_dir",
    "message",
    "notify",
    "read_file",
    "read_spill",
    "search_files",
    "session_search",
    "skill_view",
    "skills_list",
    "todo",
    "chat_manager",
    "timeline_recall",
    "calculator",
    "get_device_info",
];

/// Tools `messaging` adds to `minimal`.
const MESSAGING: &[&str] = &[
    "image_generate",
    "memory",
    "text_to_speech",
    "vision_analyze",
    "send_notification",
    "send_message",
];

/// Tools `coding` adds to `messaging`.
const CODING: &[&str] = &[
    "edit_file",
    "knowledge_index",
    "patch",
    "task",
    "workflow",
    "write_file",
    "cronjob",
];

/// The smallest profile that exposes the canonical tool `name`. Anything not listed for a
/// smaller profile (including every `mcp__*` tool and unknown names) is `full` only.
pub fn smallest_exposing(name: &str) -> ToolProfile {
    if MINIMAL.contains(&name) {
        ToolProfile::Minimal
    } else if MESSAGING.contains(&name) {
        ToolProfile::Messaging
    } else if CODING.contains(&name) {
        ToolProfile::Coding
    } else {
        ToolProfile::Full
    }
}

/// Whether `profile` exposes the canonical tool `tool_name` to the model.
pub fn exposed(profile: ToolProfile, tool_name: &str) -> bool {
    profile >= smallest_exposing(tool_name)
}
