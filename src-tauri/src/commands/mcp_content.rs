//! The composer's MCP resources and prompts: every ready server's resources (the `/mcp` panel
//! attaches one to the message being written) and prompts (offered in the `/` picker as
//! `/<server>:<prompt>`), a resource read as the text part it becomes, and a prompt fetched
//! with its arguments.

use hearth_ipc_macros::command;
use std::collections::BTreeMap;

use hearth_protocol::{
    AttachedSource, ContentPart, McpPromptMessage, McpPromptView, McpResourceListing,
};
use hearth_tools::RESOURCE_MAX_CHARS;
use tauri::State;

use crate::commands::mcp::mcp_error;
use crate::state::{AppState, CommandResult};

#[command]
pub async fn mcp_resources(state: State<'_, AppState>) -> CommandResult<McpResourceListing> {
    let manager = state.mcp.clone();
    manager
        .resources(None)
        .await
        .map_err(|e| mcp_error(e.message))
}

/// `uri` of `server` as text attached to a message (the server and URI beside it as data, for the
/// chip): `Attached MCP resource `server` `uri`:` and its text (cut at 100,000 characters) in a fenced block; binary contents by the
/// file they were saved to.
#[command]
pub async fn mcp_attach_resource(
    state: State<'_, AppState>,
    server: String,
    uri: String,
) -> CommandResult<ContentPart> {
    let manager = state.mcp.clone();
    let contents = manager
        .read_resource(&server, &uri, RESOURCE_MAX_CHARS, state.dir.root())
        .await
        .map_err(|e| mcp_error(e.message))?;
    let mut text = format!("Attached MCP resource `{server}` `{uri}`:\n");
    for content in contents {
        match (content.text, content.path) {
            (Some(body), _) => {
                text.push_str(&format!("```\n{body}\n```\n"));
                if content.truncated {
                    text.push_str(&format!("(cut at {RESOURCE_MAX_CHARS} characters)\n"));
                }
            }
            (None, Some(path)) => text.push_str(&format!(
                "binary contents ({} bytes) saved to {path}\n",
                content.bytes.unwrap_or(0)
            )),
            (None, None) => {}
        }
    }
    Ok(ContentPart::Attached {
        text,
        source: AttachedSource::McpResource { server, uri },
    })
}

#[command]
pub async fn mcp_prompts(state: State<'_, AppState>) -> CommandResult<Vec<McpPromptView>> {
    let manager = state.mcp.clone();
    manager
        .prompts(None)
        .await
        .map_err(|e| mcp_error(e.message))
}

#[command]
pub async fn mcp_get_prompt(
    state: State<'_, AppState>,
    server: String,
    name: String,
    arguments: BTreeMap<String, String>,
) -> CommandResult<McpPromptMessage> {
    let manager = state.mcp.clone();
    manager
        .get_prompt(&server, &name, arguments)
        .await
        .map_err(|e| mcp_error(e.message))
}
