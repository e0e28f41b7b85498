//! Progressive discovery: when the offered MCP tools' schemas would take more than 5% of the
//! model's context window, the model gets `tool_search` instead of every schema; the tools stay
//! callable, and a search returns the schemas of the ones matching its words.

use async_trait::async_trait;
use std::sync::{Arc, Weak};

use hearth_policy::ToolFacts;
use hearth_tools::{BoundCall, CallFacts, DynTool, ErrorKind, ToolError};
use serde_json::{json, Value};

use crate::manager::McpManager;
use crate::tool::{boxed, ToolInfo};

/// The name of the search tool.
pub const TOOL_SEARCH: &str = "tool_search";
/// Share of the context window the MCP schemas may take before `tool_search` replaces them.
pub const SCHEMA_BUDGET_PERCENT: u64 = 5;
const DEFAULT_LIMIT: usize = 5;
const MAX_LIMIT: usize = 20;

/// Tokens the model is sent for `tools` (name, description and schema), estimated at 4
/// characters per token.
pub fn schema_tokens(tools: &[ToolInfo]) -> u64 {
    let chars: usize = tools
        .iter()
        .map(|t| t.name.len() + t.description.len() + t.input_schema.to_string().len())
        .sum();
    (chars / 4) as u64
}

/// Whether `tools` pass the budget of a `context_window`-token model.
pub fn too_many(tools: &[ToolInfo], context_window: u64) -> bool {
    schema_tokens(tools) * 100 > context_window * SCHEMA_BUDGET_PERCENT
}

pub(crate) struct ToolSearch {
    pub manager: Weak<McpManager>,
}

#[async_trait]
impl DynTool for ToolSearch {
    fn name(&self) -> &str {
        TOOL_SEARCH
    }

    fn description(&self) -> &str {
        "Finds tools of the connected MCP servers by words (matched against their names and \
         descriptions) and returns their names, descriptions and parameter schemas. Call a \
         tool found here by its name, like any other tool."
    }

    fn facts(&self) -> ToolFacts {
        ToolFacts {
            name: TOOL_SEARCH.to_string(),
            capabilities: Vec::new(),
            high_risk: false,
            mutates: false,
        }
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "Words describing what the tool should do."},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT,
                          "description": "Most tools to return (default 5)."}
            },
            "required": ["query"],
            "additionalProperties": false
        })
    }

    async fn prepare(self: Arc<Self>, args: Value) -> Result<(CallFacts, BoundCall), ToolError> {
        let query = args["query"].as_str().unwrap_or("").to_lowercase();
        let limit = args["limit"]
            .as_u64()
            .map_or(DEFAULT_LIMIT, |l| (l as usize).min(MAX_LIMIT));
        let bound = boxed(move |_ctx| {
            Box::pin(async move {
                let manager = self.manager.upgrade().ok_or_else(|| {
                    ToolError::new(ErrorKind::Unavailable, "the MCP servers were shut down")
                })?;
                Ok(search(&manager.tool_infos(), &query, limit))
            })
        });
        Ok((CallFacts::read_only(), bound))
    }
}

/// The tools matching the most words of `query`, best first.
fn search(tools: &[ToolInfo], query: &str, limit: usize) -> Value {
    let words: Vec<&str> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut scored: Vec<(usize, &ToolInfo)> = tools
        .iter()
        .map(|tool| {
            let text = format!("{} {} {}", tool.name, tool.tool, tool.description).to_lowercase();
            (words.iter().filter(|w| text.contains(**w)).count(), tool)
        })
        .filter(|(score, _)| *score > 0)
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.name.cmp(&b.1.name)));
    let found: Vec<Value> = scored
        .into_iter()
        .take(limit)
        .map(|(_, tool)| {
            json!({"name": tool.name, "description": tool.description, "parameters": tool.input_schema})
        })
        .collect();
    json!({"tools": found, "total_tools": tools.len()})
}
