//! Prompts: each ready server's prompts (offered in the composer as `/<server>:<prompt>`), and
//! one fetched with its arguments (`prompts/get`) as the message it becomes — the messages'
//! text joined, embedded text resources included, images as image parts. Listings are asked of
//! the server each time, so a `prompts/list_changed` is always reflected.

use std::collections::BTreeMap;

use hearth_protocol::{ContentPart, McpPromptArgument, McpPromptMessage, McpPromptView};
use hearth_tools::{ErrorKind, ToolError, RESOURCE_MAX_CHARS};
use rmcp::model::GetPromptRequestParams;
use serde_json::Value;

use crate::manager::McpManager;
use crate::resources::{cut, offers, text_of};

impl McpManager {
    /// The prompts of `server`, or of every ready server that offers them.
    pub async fn prompts(&self, server: Option<&str>) -> Result<Vec<McpPromptView>, ToolError> {
        let servers = self.offering(server, "prompts")?;
        let mut out = Vec::new();
        for server in servers {
            let peer = server.ready_peer().await?;
            if !offers(&server, "prompts") {
                continue;
            }
            let prompts = peer
                .list_all_prompts()
                .await
                .map_err(|e| server.call_error("prompts/list", e))?;
            out.extend(prompts.into_iter().map(|prompt| {
                McpPromptView {
                    server: server.spec.name.clone(),
                    name: prompt.name,
                    title: prompt.title,
                    description: prompt.description,
                    arguments: prompt
                        .arguments
                        .unwrap_or_default()
                        .into_iter()
                        .map(|a| McpPromptArgument {
                            name: a.name,
                            description: a.description,
                            required: a.required.unwrap_or(false),
                        })
                        .collect(),
                }
            }));
        }
        Ok(out)
    }

    /// `server`'s prompt `name` filled in with `arguments`, as a message.
    pub async fn get_prompt(
        &self,
        server: &str,
        name: &str,
        arguments: BTreeMap<String, String>,
    ) -> Result<McpPromptMessage, ToolError> {
        let server = self.named(server)?;
        let peer = server.ready_peer().await?;
        let mut params = GetPromptRequestParams::new(name);
        if !arguments.is_empty() {
            params.arguments = Some(
                arguments
                    .into_iter()
                    .map(|(k, v)| (k, Value::String(v)))
                    .collect(),
            );
        }
        let result = peer
            .get_prompt(params)
            .await
            .map_err(|e| server.call_error(&format!("prompts/get {name}"), e))?;
        let wire = serde_json::to_value(&result)
            .map_err(|e| ToolError::new(ErrorKind::Internal, format!("unreadable prompt: {e}")))?;
        Ok(message(&wire))
    }
}

/// A `prompts/get` result as one message: text blocks and embedded text resources joined (cut
/// at the resource cap), images as image parts.
fn message(wire: &Value) -> McpPromptMessage {
    let mut texts = Vec::new();
    let mut parts = Vec::new();
    for message in wire["messages"].as_array().into_iter().flatten() {
        let block = &message["content"];
        match block["type"].as_str().unwrap_or("") {
            "text" => texts.push(text_of(block, "text").unwrap_or_default()),
            "image" => parts.push(ContentPart::Image {
                mime_type: text_of(block, "mimeType").unwrap_or_else(|| "image/png".into()),
                data: text_of(block, "data").unwrap_or_default(),
                name: None,
            }),
            "resource" => {
                let resource = &block["resource"];
                let uri = text_of(resource, "uri").unwrap_or_default();
                match resource["text"].as_str() {
                    Some(text) => texts.push(format!("Resource `{uri}`:\n```\n{text}\n```")),
                    None => texts.push(format!("Resource `{uri}` (binary, not included)")),
                }
            }
            "resource_link" => texts.push(format!(
                "Resource `{}`",
                text_of(block, "uri").unwrap_or_default()
            )),
            _ => {}
        }
    }
    let (text, _) = cut(&texts.join("\n\n"), RESOURCE_MAX_CHARS);
    McpPromptMessage { text, parts }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_prompt_becomes_text_with_embedded_resources_and_image_parts() {
        let wire = json!({"messages": [
            {"role": "user", "content": {"type": "text", "text": "Summarise this"}},
            {"role": "user", "content": {"type": "resource", "resource": {"uri": "demo://a", "text": "alpha"}}},
            {"role": "user", "content": {"type": "image", "data": "iVBORw0=", "mimeType": "image/png"}},
        ]});
        let out = message(&wire);
        assert_eq!(
            out.text,
            "Summarise this\n\nResource `demo://a`:\n```\nalpha\n```"
        );
        assert_eq!(
            out.parts,
            [ContentPart::Image {
                mime_type: "image/png".into(),
                data: "iVBORw0=".into(),
                name: None
            }]
        );
    }
}
