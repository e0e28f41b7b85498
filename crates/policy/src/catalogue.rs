//! The catalogue: every canonical tool declared once — name, capability tags, risk, default
//! mutability and the smallest tool profile exposing it — and `ToolFacts`, what policy decides on.
//! The tools refer to their entry; `docs/tools.md` is generated from the registry over it.

use crate::capability::Capability;
use crate::capability::Capability::*;
use crate::profile::ToolProfile;
use serde::{Deserialize, Serialize};

/// What policy needs to know about one tool, or about one call of it (a tool may say that a
/// call is less risky than the tool, e.g. a `list` action). `name` is always the canonical
/// (dialect `hearth`) name, whatever name the model called it by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolFacts {
    pub name: String,
    pub capabilities: Vec<Capability>,
    pub high_risk: bool,
    pub mutates: bool,
}

impl ToolFacts {
    /// High-risk by its own flag, or because it calls an MCP server (`mcp.call`).
    pub fn is_high_risk(&self) -> bool {
        self.high_risk || self.capabilities.contains(&McpCall)
    }

    pub fn has(&self, capability: Capability) -> bool {
        self.capabilities.contains(&capability)
    }
}

/// One canonical tool: the facts every dialect's version of it shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CanonicalTool {
    pub name: &'static str,
    pub capabilities: &'static [Capability],
    /// Whether its calls ask for approval (under `personal_cli`) unless the tool says a call
    /// is read-only.
    pub high_risk: bool,
    /// Whether its calls change something, unless the tool says a call does not.
    pub mutates: bool,
    /// The smallest tool profile that exposes it (profiles are cumulative).
    pub profile: ToolProfile,
}

impl CanonicalTool {
    pub fn facts(&self) -> ToolFacts {
        ToolFacts {
            name: self.name.to_string(),
            capabilities: self.capabilities.to_vec(),
            high_risk: self.high_risk,
            mutates: self.mutates,
        }
    }
}

/// A tool that only reads or computes.
const fn reads(name: &'static str, caps: &'static [Capability], p: ToolProfile) -> CanonicalTool {
    entry(name, caps, false, false, p)
}

/// A tool that changes something (files, messages sent, stored state).
const fn writes(name: &'static str, caps: &'static [Capability], p: ToolProfile) -> CanonicalTool {
    entry(name, caps, false, true, p)
}

/// A high-risk tool; all of them mutate.
const fn risky(name: &'static str, caps: &'static [Capability], p: ToolProfile) -> CanonicalTool {
    entry(name, caps, true, true, p)
}

const fn entry(
    name: &'static str,
    capabilities: &'static [Capability],
    high_risk: bool,
    mutates: bool,
    profile: ToolProfile,
) -> CanonicalTool {
    CanonicalTool {
        name,
        capabilities,
        high_risk,
        mutates,
        profile,
    }
}

/// Declares each entry as a constant the tools refer to, and [`CANONICAL_TOOLS`] listing them.
macro_rules! catalogue {
    ($($id:ident: $kind:ident($name:literal, [$($cap:ident),*], $profile:ident);)+) => {
        $(
            #[doc = concat!("The catalogue entry of `", $name, "`.")]
            pub const $id: CanonicalTool = $kind($name, &[$($cap),*], ToolProfile::$profile);
        )+

        /// Every canonical tool (MCP tools are discovered at run time: [`mcp_tool_facts`]).
        pub const CANONICAL_TOOLS: &[CanonicalTool] = &[$($id),+];
    };
}

catalogue! {
    // Files and search
    READ_FILE: reads("read_file", [FsRead], Minimal);
    WRITE_FILE: writes("write_file", [FsWrite], Coding);
    EDIT_FILE: writes("edit_file", [FsRead, FsWrite], Coding);
    PATCH: writes("patch", [FsRead, FsWrite], Coding);
    LIST_DIR: reads("list_dir", [FsRead], Minimal);
    SEARCH_FILES: reads("search_files", [FsRead], Minimal);
    READ_DOCUMENT: reads("read_document", [], Full);
    READ_SPILL: reads("read_spill", [FsRead], Minimal);
    // Knowledge, memory, history
    MEMORY: writes("memory", [MemoryRead, MemoryWrite], Messaging);
    SESSION_SEARCH: reads("session_search", [SessionRead], Minimal);
    TIMELINE_RECALL: reads("timeline_recall", [SessionRead], Minimal);
    CHAT_MANAGER: reads("chat_manager", [SessionRead], Minimal);
    KNOWLEDGE_INDEX: writes("knowledge_index", [KnowledgeWrite, FsRead], Coding);
    KNOWLEDGE_SEARCH: reads("knowledge_search", [KnowledgeRead], Minimal);
    // Messages, artifacts, media
    MESSAGE: writes("message", [MessageSend], Minimal);
    SEND_MESSAGE: writes("send_message", [MessageSend], Messaging);
    SEND_FILE: writes("send_file", [FsRead, MessageSend], Full);
    NOTIFY: writes("notify", [MessageSend], Minimal);
    SEND_NOTIFICATION: writes("send_notification", [Notification], Messaging);
    CLARIFY: reads("clarify", [MessageAsk], Minimal);
    ARTIFACT_CREATE: writes("artifact_create", [ArtifactWrite], Minimal);
    ARTIFACT_APPEND: writes("artifact_append", [ArtifactWrite], Minimal);
    ARTIFACT_VALIDATE: reads("artifact_validate", [ArtifactRead], Minimal);
    ARTIFACT_FINALIZE: writes("artifact_finalize", [ArtifactWrite], Minimal);
    ARTIFACT_DELIVER: writes("artifact_deliver", [ArtifactRead, MessageSend], Minimal);
    IMAGE_GENERATE: writes("image_generate", [MediaGenerate, NetworkOutbound], Messaging);
    TEXT_TO_SPEECH: writes("text_to_speech", [MediaGenerate, NetworkOutbound], Messaging);
    VISION_ANALYZE: reads("vision_analyze", [MediaRead], Messaging);
    // Network and browser
    HTTP_REQUEST: writes("http_request", [NetworkOutbound], Full);
    WEB_FETCH: reads("web_fetch", [NetworkOutbound], Full);
    WEB_SEARCH: reads("web_search", [NetworkOutbound], Full);
    BROWSER: writes("browser", [BrowserControl, NetworkOutbound], Full);
    // Execution
    EXEC: risky("exec", [ProcessExec], Full);
    EXECUTE_CODE: risky("execute_code", [CodeExec, ProcessExec], Full);
    PROCESS: risky("process", [ProcessExec, ProcessManage], Full);
    PTY: risky("pty", [ProcessExec, ProcessManage], Full);
    // Planning, scheduling, delegation
    TODO: writes("todo", [TaskWrite], Minimal);
    TASK: writes("task", [TaskWrite], Coding);
    WORKFLOW: writes("workflow", [WorkflowWrite], Coding);
    CRONJOB: risky("cronjob", [SchedulerWrite], Coding);
    DELEGATE_TASK: writes("delegate_task", [], Full);
    SPAWN_TASK: writes("spawn_task", [], Full);
    AGENTS_LIST: reads("agents_list", [AgentRead], Minimal);
    AGENTS_ROUTE: writes("agents_route", [AgentDispatch], Minimal);
    // Skills and misc
    SKILLS_LIST: reads("skills_list", [SkillRead], Minimal);
    SKILL_VIEW: reads("skill_view", [SkillRead], Minimal);
    SKILL_RUN: risky("skill_run", [ProcessExec, CodeExec, SkillRead], Full);
    SKILL_MANAGE: risky("skill_manage", [SkillWrite, FsWrite], Full);
    SKILL_INSTALL: risky("skill_install", [SkillInstall, NetworkOutbound, FsWrite], Full);
    // MCP servers' resources (their tools are discovered at run time: `mcp_tool_facts`)
    MCP_RESOURCES: reads("mcp_resources", [McpRead], Full);
    MCP_RESOURCE_READ: reads("mcp_resource_read", [McpRead], Full);
    CALCULATOR: reads("calculator", [], Minimal);
    GET_DEVICE_INFO: reads("get_device_info", [], Minimal);
}

/// The catalogue entry of a canonical tool.
pub fn canonical_tool(name: &str) -> Option<&'static CanonicalTool> {
    CANONICAL_TOOLS.iter().find(|t| t.name == name)
}

/// Facts of a discovered MCP tool (`mcp__<server>__<tool>`): tagged `mcp.call`, high-risk,
/// possibly mutating.
pub fn mcp_tool_facts(name: &str) -> ToolFacts {
    ToolFacts {
        name: name.to_string(),
        capabilities: vec![McpCall],
        high_risk: true,
        mutates: true,
    }
}
