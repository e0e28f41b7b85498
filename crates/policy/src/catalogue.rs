//! The static catalogue of every canonical tool of SPEC §3 (name, capability tags, high-risk,
//! mutates) and `ToolFacts`, the description policy decides on.

use crate::capability::Capability;
use crate::capability::Capability::*;
use serde::{Deserialize, Serialize};

/// What policy needs to know about one tool. `name` is always the canonical (dialect `hearth`)
/// name, whatever name the model called it by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolFacts {
    pub name: String,
    pub capabilities: Vec<Capability>,
    pub high_risk: bool,
    pub mutates: bool,
}

impl ToolFacts {
    /// High-risk by its own flag, or because it calls an MCP server (`mcp.call`, SPEC §4).
    pub fn is_high_risk(&self) -> bool {
        self.high_risk || self.capabilities.contains(&McpCall)
    }

    pub fn has(&self, capability: Capability) -> bool {
        self.capabilities.contains(&capability)
    }
}

/// One entry of [`CANONICAL_TOOLS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CanonicalTool {
    pub name: &'static str,
    pub capabilities: &'static [Capability],
    pub high_risk: bool,
    pub mutates: bool,
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
const fn reads(name: &'static str, capabilities: &'static [Capability]) -> CanonicalTool {
    CanonicalTool {
        name,
        capabilities,
        high_risk: false,
        mutates: false,
    }
}

/// A tool that changes something (files, messages sent, stored state).
const fn writes(name: &'static str, capabilities: &'static [Capability]) -> CanonicalTool {
    CanonicalTool {
        name,
        capabilities,
        high_risk: false,
        mutates: true,
    }
}

/// A high-risk tool (SPEC §4); all of them mutate.
const fn risky(name: &'static str, capabilities: &'static [Capability]) -> CanonicalTool {
    CanonicalTool {
        name,
        capabilities,
        high_risk: true,
        mutates: true,
    }
}

/// Every canonical tool of SPEC §3 (MCP tools are discovered at run time: [`mcp_tool_facts`]).
pub const CANONICAL_TOOLS: &[CanonicalTool] = &[
    // 3.1 Files and search
    reads("read_file", &[FsRead]),
    writes("write_file", &[FsWrite]),
    writes("edit_file", &[FsRead, FsWrite]),
    writes("patch", &[FsRead, FsWrite]),
    reads("list_dir", &[FsRead]),
    reads("search_files", &[FsRead]),
    reads("read_document", &[]),
    reads("read_spill", &[FsRead]),
    // 3.2 Knowledge, memory, history
    writes("memory", &[MemoryRead, MemoryWrite]),
    reads("session_search", &[SessionRead]),
    reads("timeline_recall", &[SessionRead]),
    reads("chat_manager", &[SessionRead]),
    writes("knowledge_index", &[KnowledgeWrite, FsRead]),
    reads("knowledge_search", &[KnowledgeRead]),
    // 3.3 Messages, artifacts, media
    writes("message", &[MessageSend]),
    writes("send_message", &[MessageSend]),
    writes("send_file", &[FsRead, MessageSend]),
    writes("notify", &[MessageSend]),
    writes("send_notification", &[Notification]),
    reads("clarify", &[MessageAsk]),
    writes("artifact_create", &[ArtifactWrite]),
    writes("artifact_append", &[ArtifactWrite]),
    reads("artifact_validate", &[ArtifactRead]),
    writes("artifact_finalize", &[ArtifactWrite]),
    writes("artifact_deliver", &[ArtifactRead, MessageSend]),
    writes("image_generate", &[MediaGenerate, NetworkOutbound]),
    writes("text_to_speech", &[MediaGenerate, NetworkOutbound]),
    reads("vision_analyze", &[MediaRead]),
    // 3.4 Network and browser
    writes("http_request", &[NetworkOutbound]),
    reads("web_fetch", &[NetworkOutbound]),
    reads("web_search", &[NetworkOutbound]),
    writes("browser", &[BrowserControl, NetworkOutbound]),
    // 3.5 Execution
    risky("exec", &[ProcessExec]),
    risky("execute_code", &[CodeExec, ProcessExec]),
    risky("process", &[ProcessExec, ProcessManage]),
    risky("pty", &[ProcessExec, ProcessManage]),
    // 3.6 Planning, scheduling, delegation
    writes("todo", &[TaskWrite]),
    writes("task", &[TaskWrite]),
    writes("workflow", &[WorkflowWrite]),
    risky("cronjob", &[SchedulerWrite]),
    writes("delegate_task", &[]),
    writes("spawn_task", &[]),
    reads("agents_list", &[AgentRead]),
    writes("agents_route", &[AgentDispatch]),
    // 3.7 Skills and misc
    reads("skills_list", &[SkillRead]),
    reads("skill_view", &[SkillRead]),
    risky("skill_run", &[ProcessExec, CodeExec, SkillRead]),
    risky("skill_manage", &[SkillWrite, FsWrite]),
    risky("skill_install", &[SkillInstall, NetworkOutbound, FsWrite]),
    reads("calculator", &[]),
    reads("get_device_info", &[]),
];

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
