//! `mcp_resources` and `mcp_resource_read`: the model lists the resources (and resource
//! templates) the connected MCP servers offer and reads one — text cut at `max_chars`, binary
//! contents saved under the data dir and referenced by path. The MCP client implements
//! [`McpResources`]; these tools only check the arguments and shape the answer.

use std::sync::Arc;

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_protocol::{McpResourceContent, McpResourceListing};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::ToolError;
use crate::tool::{Tool, ToolContext};

/// Default and largest number of characters of text a read returns.
pub const RESOURCE_DEFAULT_CHARS: usize = 20_000;
pub const RESOURCE_MAX_CHARS: usize = 100_000;
/// Longest URI accepted.
const MAX_URI: usize = 4096;

/// The servers' resources as the tools reach them.
#[async_trait]
pub trait McpResources: Send + Sync {
    /// The resources and templates of `server`, or of every ready server offering resources.
    async fn list_resources(&self, server: Option<&str>) -> Result<McpResourceListing, ToolError>;

    /// Reads `uri` from `server`: text cut at `max_chars`, binary contents saved under
    /// `data_dir`.
    async fn read_resource(
        &self,
        server: &str,
        uri: &str,
        max_chars: usize,
        data_dir: &std::path::Path,
    ) -> Result<Vec<McpResourceContent>, ToolError>;
}

/// Lists resources.
pub struct McpResourceList(pub Arc<dyn McpResources>);

/// Reads one resource.
pub struct McpResourceRead(pub Arc<dyn McpResources>);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct McpResourceListArgs {
    /// Only this server's resources (its name as configured); every server's when left out.
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub server: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct McpResourceReadArgs {
    /// The server offering the resource (as `mcp_resources` names it).
    #[schemars(length(min = 1, max = 64))]
    pub server: String,
    /// The resource's URI, from `mcp_resources` (a template filled in is accepted too).
    #[schemars(length(min = 1, max = 4096))]
    pub uri: String,
    /// Most characters of text to return (default 20000, at most 100000); longer text is cut.
    #[serde(default)]
    #[schemars(range(min = 1, max = 100000))]
    pub max_chars: Option<usize>,
}

fn check_server(server: &str) -> Result<(), ToolError> {
    if server.trim().is_empty() || server.len() > 64 {
        return Err(ToolError::invalid(
            "server",
            "`server` is a configured server's name (1 to 64 characters)",
        ));
    }
    Ok(())
}

#[async_trait]
impl Tool for McpResourceList {
    type Args = McpResourceListArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::MCP_RESOURCES
    }

    fn description(&self) -> &str {
        "List the resources (files, records, documents…) the connected MCP servers offer, with \
         their URIs, names, types and sizes, and the URI templates a server accepts. Read one \
         with mcp_resource_read."
    }

    async fn run(&self, _ctx: &ToolContext, args: McpResourceListArgs) -> Result<Value, ToolError> {
        if let Some(server) = &args.server {
            check_server(server)?;
        }
        let listing = self.0.list_resources(args.server.as_deref()).await?;
        Ok(json!({"resources": listing.resources, "templates": listing.templates}))
    }
}

#[async_trait]
impl Tool for McpResourceRead {
    type Args = McpResourceReadArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::MCP_RESOURCE_READ
    }

    fn description(&self) -> &str {
        "Read a resource of a connected MCP server by its URI (from mcp_resources). Returns its \
         text (cut at max_chars, and said so), or for binary contents the file it was saved to."
    }

    async fn run(&self, ctx: &ToolContext, args: McpResourceReadArgs) -> Result<Value, ToolError> {
        check_server(&args.server)?;
        let uri = args.uri.trim();
        if uri.is_empty() || uri.len() > MAX_URI {
            return Err(ToolError::invalid(
                "uri",
                format!("`uri` is 1 to {MAX_URI} characters"),
            ));
        }
        let max_chars = args.max_chars.unwrap_or(RESOURCE_DEFAULT_CHARS);
        if max_chars == 0 || max_chars > RESOURCE_MAX_CHARS {
            return Err(ToolError::invalid(
                "max_chars",
                format!("`max_chars` is 1 to {RESOURCE_MAX_CHARS}"),
            ));
        }
        let contents = self
            .0
            .read_resource(&args.server, uri, max_chars, &ctx.data_dir)
            .await?;
        Ok(json!({"server": args.server, "uri": uri, "contents": contents}))
    }
}

/// Where no MCP client runs (the generated reference): nothing is listed and nothing can be read.
pub struct NoMcpServers;

#[async_trait]
impl McpResources for NoMcpServers {
    async fn list_resources(&self, _: Option<&str>) -> Result<McpResourceListing, ToolError> {
        Ok(McpResourceListing::default())
    }

    async fn read_resource(
        &self,
        server: &str,
        _: &str,
        _: usize,
        _: &std::path::Path,
    ) -> Result<Vec<McpResourceContent>, ToolError> {
        Err(ToolError::new(
            crate::error::ErrorKind::Unavailable,
            format!("no MCP server `{server}` runs here"),
        ))
    }
}
