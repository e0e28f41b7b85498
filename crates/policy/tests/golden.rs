//! Golden table: every catalogue tool (and one MCP tool) × 4 tool profiles × 3 security profiles.

use hearth_policy::{
    decide, mcp_tool_facts, Decision, PolicyInput, SecurityProfile, ToolProfile, CANONICAL_TOOLS,
};
use std::collections::HashSet;
use std::fmt::Write;
use std::path::Path;

#[test]
fn every_tool_under_every_profile() {
    let mut tools: Vec<_> = CANONICAL_TOOLS.iter().map(|t| t.facts()).collect();
    tools.push(mcp_tool_facts("mcp__demo__echo"));
    let empty = HashSet::new();
    let mut table = String::new();
    for tool in &tools {
        for profile in ToolProfile::ALL {
            for security in SecurityProfile::ALL {
                let decision = decide(&PolicyInput {
                    tool,
                    tool_profile: profile,
                    security,
                    rules: &[],
                    workspace: Some(Path::new("/ws")),
                    session_allowances: &empty,
                    job_authorization: None,
                });
                let shown = match decision {
                    Decision::Allow { by } => format!("allow ({by})"),
                    Decision::Ask { reason } => format!("ask ({reason})"),
                    Decision::Deny { reason, by } => format!("deny by {by} ({reason})"),
                };
                let _ = writeln!(table, "{} {profile} {security} -> {shown}", tool.name);
            }
        }
    }
    insta::assert_snapshot!(table);
}
