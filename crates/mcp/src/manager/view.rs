//! The servers as the settings page and `/mcp` show them: status, log tail and every tool of
//! a ready server (a tool set to Never is listed too, so it can be set back).

use hearth_protocol::{McpServerState, McpServerView, McpToolView};

use super::McpManager;
use crate::status::State;
use crate::tool::read_only_hint;

impl McpManager {
    /// Every configured server, in configuration order.
    pub fn views(&self) -> Vec<McpServerView> {
        let offered = self.tool_infos();
        self.status_rows()
            .into_iter()
            .map(|(status, server, offer)| {
                let tools = server
                    .tools()
                    .into_iter()
                    .map(|tool| {
                        let read_only = read_only_hint(&tool);
                        let qualified = offered
                            .iter()
                            .find(|t| t.server == status.name && t.tool == tool.name.as_ref())
                            .map(|t| t.name.clone());
                        McpToolView {
                            unasked: qualified.is_some()
                                && offer.runs_unasked(&tool.name, read_only),
                            qualified,
                            tool: tool.name.to_string(),
                            description: tool.description.as_deref().unwrap_or("").to_string(),
                            read_only,
                        }
                    })
                    .collect();
                let (state, reason) = match status.state {
                    State::Disabled => (McpServerState::Disabled, None),
                    State::Starting => (McpServerState::Starting, None),
                    State::Ready => (McpServerState::Ready, None),
                    State::Failed { reason } => (McpServerState::Failed, Some(reason)),
                    State::NeedsSignIn => (McpServerState::NeedsSignIn, None),
                    State::Stopped => (McpServerState::Stopped, None),
                };
                McpServerView {
                    name: status.name,
                    state,
                    reason,
                    transport: status.transport.to_string(),
                    protocol_version: status.protocol_version,
                    restarts: status.restarts,
                    log_path: status.log_path.display().to_string(),
                    log_tail: status.log_tail,
                    tools,
                }
            })
            .collect()
    }
}
