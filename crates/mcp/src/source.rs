//! The manager as the engine's [`ToolSource`]: the ready servers' tools, and allow rules for
//! those the user lets run without asking (Always, or read-only on a trusted server).

use std::sync::Arc;

use hearth_engine::ToolSource;
use hearth_policy::{Matcher, Rule};
use hearth_tools::DynTool;

use crate::manager::McpManager;

impl ToolSource for McpManager {
    fn tools(&self) -> Vec<Arc<dyn DynTool>> {
        self.registry_tools()
    }

    fn allow_rules(&self) -> Vec<Rule> {
        self.tool_infos()
            .into_iter()
            .filter(|tool| tool.unasked)
            .map(|tool| Rule::allow(Matcher::ToolName(tool.name)))
            .collect()
    }
}
