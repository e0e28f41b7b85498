//! One MCP tool in the registry: its schema passed through, its facts from the policy
//! catalogue (`mcp.call`, high-risk), and a call that goes to its server.

use async_trait::async_trait;
use std::sync::Arc;

use hearth_policy::{mcp_tool_facts, ToolFacts};
use hearth_tools::{BoundCall, CallFacts, CallFuture, DynTool, ErrorKind, ToolContext, ToolError};
use serde_json::Value;

use crate::server::Server;

/// What the registry and the UI know about one offered tool.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ToolInfo {
    /// The name the model calls (`mcp__<server>__<tool>`).
    pub name: String,
    pub server: String,
    /// The server's own name for it.
    pub tool: String,
    pub description: String,
    pub input_schema: Value,
    pub output_schema: Option<Value>,
    /// Annotated `readOnlyHint: true` by the server.
    pub read_only: bool,
    /// Runs without asking under `personal_cli` (Always, or trusted read-only).
    pub unasked: bool,
}

/// Whether the server annotated `tool` `readOnlyHint: true`.
pub(crate) fn read_only_hint(tool: &rmcp::model::Tool) -> bool {
    tool.annotations
        .as_ref()
        .and_then(|a| a.read_only_hint)
        .unwrap_or(false)
}

pub(crate) struct McpTool {
    pub info: ToolInfo,
    pub server: Arc<Server>,
}

#[async_trait]
impl DynTool for McpTool {
    fn name(&self) -> &str {
        &self.info.name
    }

    fn description(&self) -> &str {
        &self.info.description
    }

    fn facts(&self) -> ToolFacts {
        let mut facts = mcp_tool_facts(&self.info.name);
        facts.mutates = !self.info.read_only;
        facts
    }

    fn parameters(&self) -> Value {
        self.info.input_schema.clone()
    }

    async fn prepare(self: Arc<Self>, args: Value) -> Result<(CallFacts, BoundCall), ToolError> {
        let Value::Object(arguments) = args else {
            return Err(ToolError::new(
                ErrorKind::InvalidArguments,
                "the arguments must be a JSON object",
            ));
        };
        let facts = CallFacts {
            high_risk: true,
            mutates: !self.info.read_only,
            always_ask: false,
            confirmation: None,
        };
        Ok((facts, bind(self, arguments)))
    }
}

/// Boxes `run` as a [`BoundCall`] (the bound lets the compiler see the closure's signature).
pub(crate) fn boxed<F>(run: F) -> BoundCall
where
    F: for<'a> FnOnce(&'a ToolContext) -> CallFuture<'a> + Send + 'static,
{
    Box::new(run)
}

fn bind(tool: Arc<McpTool>, arguments: serde_json::Map<String, Value>) -> BoundCall {
    boxed(move |ctx| {
        Box::pin(async move {
            let _asking = tool.server.asking.during(ctx.conversation.clone());
            let result = tool.server.call(&tool.info.tool, arguments).await?;
            crate::result::model_result(
                &tool.info.server,
                &result,
                tool.info.output_schema.as_ref(),
                ctx,
            )
            .await
        })
    })
}
