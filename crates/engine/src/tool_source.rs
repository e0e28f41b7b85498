//! Tools discovered at run time (an MCP server's tools): the builder adds them to every
//! registry it builds, and the rules letting the user-approved ones run without asking to every
//! tool runner.

use std::sync::Arc;

use hearth_policy::Rule;
use hearth_tools::DynTool;

/// A source of tools found at run time.
pub trait ToolSource: Send + Sync {
    /// The tools offered now (a source whose servers are still starting offers fewer).
    fn tools(&self) -> Vec<Arc<dyn DynTool>>;

    /// Allow rules for the tools the user lets run without asking (never overriding a deny).
    fn allow_rules(&self) -> Vec<Rule>;
}
