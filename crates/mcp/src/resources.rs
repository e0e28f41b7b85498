//! Resources: each ready server's resources and resource templates (every page), and reading
//! one — text cut at a cap, binary contents saved under the data dir's `mcp-media/`. Listings are
//! asked of the server each time, so a `resources/list_changed` needs no cache to invalidate.
//! The model reaches them through `mcp_resources` / `mcp_resource_read`.

use std::path::Path;
use std::sync::{Arc, Weak};

use async_trait::async_trait;
use hearth_protocol::{
    McpResourceContent, McpResourceListing, McpResourceTemplateView, McpResourceView,
};
use hearth_tools::{
    DynTool, ErrorKind, IntoDynTool, McpResourceList, McpResourceRead, McpResources, ToolError,
};
use rmcp::model::ReadResourceRequestParams;
use serde_json::Value;

use crate::manager::McpManager;
use crate::server::Server;

/// Reads `field` of `value` as a string.
pub(crate) fn text_of(value: &Value, field: &str) -> Option<String> {
    value[field].as_str().map(str::to_string)
}

/// Whether the server said (in its capabilities) that it offers `what` (`resources`, `prompts`).
pub(crate) fn offers(server: &Server, what: &str) -> bool {
    server.capabilities().is_some_and(|c| !c[what].is_null())
}

impl McpManager {
    /// The server named `name`, or every ready server that offers `what` (`resources`,
    /// `prompts`).
    pub(crate) fn offering(
        &self,
        name: Option<&str>,
        what: &str,
    ) -> Result<Vec<Arc<Server>>, ToolError> {
        Ok(match name {
            Some(name) => vec![self.named(name)?],
            None => self
                .servers()
                .into_iter()
                .map(|(server, _)| server)
                .filter(|server| server.is_ready() && offers(server, what))
                .collect(),
        })
    }

    /// The ready server named `name`, waiting for it through a start.
    pub(crate) fn named(&self, name: &str) -> Result<Arc<Server>, ToolError> {
        self.servers()
            .into_iter()
            .map(|(server, _)| server)
            .find(|server| server.spec.name == name)
            .ok_or_else(|| {
                ToolError::new(
                    ErrorKind::NotFound,
                    format!("no MCP server named `{name}` is configured"),
                )
            })
    }

    /// The resource tools while a ready server offers resources (none otherwise).
    pub fn resource_tools(&self) -> Vec<Arc<dyn DynTool>> {
        let any = self
            .servers()
            .iter()
            .any(|(server, _)| server.is_ready() && offers(server, "resources"));
        if !any {
            return Vec::new();
        }
        let reader: Arc<dyn McpResources> = Arc::new(Resources { manager: self.me() });
        vec![
            McpResourceList(reader.clone()).into_dyn(),
            McpResourceRead(reader).into_dyn(),
        ]
    }

    /// The resources and templates of `server`, or of every ready server that offers them.
    pub async fn resources(&self, server: Option<&str>) -> Result<McpResourceListing, ToolError> {
        let servers = self.offering(server, "resources")?;
        let mut listing = McpResourceListing::default();
        for server in servers {
            let one = list_one(&server).await?;
            listing.resources.extend(one.resources);
            listing.templates.extend(one.templates);
        }
        Ok(listing)
    }

    /// Reads `uri` from `server`: text cut at `max_chars`, binary contents saved under
    /// `data_dir`.
    pub async fn read_resource(
        &self,
        server: &str,
        uri: &str,
        max_chars: usize,
        data_dir: &Path,
    ) -> Result<Vec<McpResourceContent>, ToolError> {
        let server = self.named(server)?;
        let peer = server.ready_peer().await?;
        let result = peer
            .read_resource(ReadResourceRequestParams::new(uri))
            .await
            .map_err(|e| server.call_error("resources/read", e))?;
        let wire = serde_json::to_value(&result).map_err(|e| {
            ToolError::new(ErrorKind::Internal, format!("unreadable resource: {e}"))
        })?;
        let mut out = Vec::new();
        for contents in wire["contents"].as_array().into_iter().flatten() {
            out.push(content(contents, max_chars, data_dir).await?);
        }
        Ok(out)
    }
}

/// One server's listing; a server that does not offer resources has none.
async fn list_one(server: &Server) -> Result<McpResourceListing, ToolError> {
    let peer = server.ready_peer().await?;
    if !offers(server, "resources") {
        return Ok(McpResourceListing::default());
    }
    let name = &server.spec.name;
    let resources = peer
        .list_all_resources()
        .await
        .map_err(|e| server.call_error("resources/list", e))?;
    // Templates are optional: a server without them answers "method not found".
    let templates = peer.list_all_resource_templates().await.unwrap_or_default();
    Ok(McpResourceListing {
        resources: resources
            .iter()
            .map(|r| {
                let r = wire(r);
                McpResourceView {
                    server: name.clone(),
                    uri: text_of(&r, "uri").unwrap_or_default(),
                    name: text_of(&r, "name").unwrap_or_default(),
                    title: text_of(&r, "title"),
                    description: text_of(&r, "description"),
                    mime_type: text_of(&r, "mimeType"),
                    size: r["size"].as_u64(),
                }
            })
            .collect(),
        templates: templates
            .iter()
            .map(|t| {
                let t = wire(t);
                McpResourceTemplateView {
                    server: name.clone(),
                    uri_template: text_of(&t, "uriTemplate").unwrap_or_default(),
                    name: text_of(&t, "name").unwrap_or_default(),
                    description: text_of(&t, "description"),
                    mime_type: text_of(&t, "mimeType"),
                }
            })
            .collect(),
    })
}

/// `value` as its JSON wire form.
fn wire(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// One `contents` entry: its text cut at `max_chars`, or its blob saved.
async fn content(
    contents: &Value,
    max_chars: usize,
    data_dir: &Path,
) -> Result<McpResourceContent, ToolError> {
    let mime_type = text_of(contents, "mimeType");
    let mut out = McpResourceContent {
        uri: text_of(contents, "uri").unwrap_or_default(),
        mime_type: mime_type.clone(),
        text: None,
        truncated: false,
        path: None,
        bytes: None,
    };
    if let Some(text) = contents["text"].as_str() {
        let (cut, truncated) = cut(text, max_chars);
        out.text = Some(cut);
        out.truncated = truncated;
    } else if let Some(blob) = contents["blob"].as_str() {
        let mime = mime_type.as_deref().unwrap_or("application/octet-stream");
        let (path, bytes) = crate::result::save(blob, mime, data_dir).await?;
        out.path = Some(path);
        out.bytes = Some(bytes.len() as u64);
    }
    Ok(out)
}

/// `text` cut to at most `max` characters; whether it was cut.
pub(crate) fn cut(text: &str, max: usize) -> (String, bool) {
    match text.char_indices().nth(max) {
        Some((end, _)) => (text[..end].to_string(), true),
        None => (text.to_string(), false),
    }
}

/// The manager as the resource tools reach it (weakly: a registry never keeps servers alive).
pub(crate) struct Resources {
    pub manager: Weak<McpManager>,
}

impl Resources {
    fn manager(&self) -> Result<Arc<McpManager>, ToolError> {
        self.manager
            .upgrade()
            .ok_or_else(|| ToolError::new(ErrorKind::Unavailable, "the MCP servers were shut down"))
    }
}

#[async_trait]
impl McpResources for Resources {
    async fn list_resources(&self, server: Option<&str>) -> Result<McpResourceListing, ToolError> {
        self.manager()?.resources(server).await
    }

    async fn read_resource(
        &self,
        server: &str,
        uri: &str,
        max_chars: usize,
        data_dir: &Path,
    ) -> Result<Vec<McpResourceContent>, ToolError> {
        self.manager()?
            .read_resource(server, uri, max_chars, data_dir)
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::cut;

    #[test]
    fn text_is_cut_at_a_character_boundary() {
        assert_eq!(cut("héllo", 2), ("hé".to_string(), true));
        assert_eq!(cut("héllo", 5), ("héllo".to_string(), false));
        assert_eq!(cut("你好世界", 3), ("你好世".to_string(), true));
    }
}
