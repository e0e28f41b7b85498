//! The manager as the engine's [`ToolSource`]: the ready servers' tools (behind `tool_search`
//! when there are too many), and allow rules for those the user lets run without asking
//! (Always, or read-only on a trusted server); calls of a server that is not ready are told why.

use hearth_core::{SourceTools, ToolSource};
use hearth_policy::{Matcher, Rule};

use crate::manager::McpManager;
use crate::search::too_many;

impl ToolSource for McpManager {
    /// Every offered tool, or — when their schemas pass 5% of `context_window` — only
    /// `tool_search` listed and the tools callable behind it.
    /// `mcp_resources` and `mcp_resource_read` are listed too while a ready server offers
    /// resources.
    fn tools(&self, context_window: u64) -> SourceTools {
        let tools = self.registry_tools();
        let mut listed = self.resource_tools();
        let unavailable = self.unavailable();
        if tools.is_empty() || !too_many(&self.tool_infos(), context_window) {
            listed.extend(tools);
            return SourceTools {
                listed,
                deferred: Vec::new(),
                unavailable,
            };
        }
        listed.push(self.search_tool());
        SourceTools {
            listed,
            deferred: tools,
            unavailable,
        }
    }

    fn allow_rules(&self) -> Vec<Rule> {
        self.tool_infos()
            .into_iter()
            .filter(|tool| tool.unasked)
            .map(|tool| Rule::allow(Matcher::ToolName(tool.name)))
            .collect()
    }
}
