//! What a job authorization covers: the high-risk tools it names, and every tool of an MCP
//! server it names as `mcp__<server>__*`.

use std::collections::HashSet;

/// The authorization entry naming every tool of the MCP server `server`.
pub fn mcp_server_scope(server: &str) -> String {
    format!("mcp__{server}__*")
}

/// Whether the authorized `tools` cover the tool `name`: named exactly, or an MCP tool
/// (`mcp__<server>__<tool>`) whose server is named.
pub fn authorization_covers(tools: &HashSet<String>, name: &str) -> bool {
    if tools.contains(name) {
        return true;
    }
    let Some(rest) = name.strip_prefix("mcp__") else {
        return false;
    };
    match rest.split_once("__") {
        Some((server, tool)) if !server.is_empty() && !tool.is_empty() => {
            tools.contains(&mcp_server_scope(server))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_scope_covers_that_servers_tools_only() {
        let tools: HashSet<String> = ["exec".to_string(), mcp_server_scope("github")].into();
        assert!(authorization_covers(&tools, "exec"));
        assert!(authorization_covers(&tools, "mcp__github__create_issue"));
        assert!(!authorization_covers(&tools, "mcp__gitlab__create_issue"));
        assert!(!authorization_covers(&tools, "mcp__github__"));
        assert!(!authorization_covers(&tools, "mcp__github"));
        assert!(!authorization_covers(&tools, "write_file"));
    }
}
