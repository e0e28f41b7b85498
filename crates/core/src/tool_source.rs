//! Tools discovered at run time (an MCP server's tools): the builder adds them to every
//! registry it builds, and the rules letting the user-approved ones run without asking to every
//! tool runner.

use std::sync::Arc;

use hearth_policy::Rule;
use hearth_tools::DynTool;

/// The tools a source offers now.
#[derive(Default)]
pub struct SourceTools {
    /// Listed to the model.
    pub listed: Vec<Arc<dyn DynTool>>,
    /// Callable but not listed (found through a listed search tool).
    pub deferred: Vec<Arc<dyn DynTool>>,
    /// Name prefixes of tools that cannot be called now, each with why (a server that failed
    /// to start): a call of such a name is told that instead of "no tool named …".
    pub unavailable: Vec<(String, String)>,
}

/// A source of tools found at run time.
pub trait ToolSource: Send + Sync {
    /// The tools offered now (a source whose servers are still starting offers fewer), for a
    /// model with a context window of `context_window` tokens.
    fn tools(&self, context_window: u64) -> SourceTools;

    /// Allow rules for the tools the user lets run without asking (never overriding a deny).
    fn allow_rules(&self) -> Vec<Rule>;
}
