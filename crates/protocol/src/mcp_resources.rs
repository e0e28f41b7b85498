//! What the composer, the `/` picker and the CLI see of an MCP server's resources and prompts:
//! the listings, a read resource and a fetched prompt.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::ContentPart;

/// One resource a server lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct McpResourceView {
    pub server: String,
    pub uri: String,
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub mime_type: Option<String>,
    #[ts(type = "number | null")]
    pub size: Option<u64>,
}

/// One resource template (a URI with `{placeholders}`) a server lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct McpResourceTemplateView {
    pub server: String,
    pub uri_template: String,
    pub name: String,
    pub description: Option<String>,
    pub mime_type: Option<String>,
}

/// A server's resources and templates.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct McpResourceListing {
    pub resources: Vec<McpResourceView>,
    pub templates: Vec<McpResourceTemplateView>,
}

/// One part of a read resource: its text (cut at the cap), or for binary contents the file it
/// was saved to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct McpResourceContent {
    pub uri: String,
    pub mime_type: Option<String>,
    pub text: Option<String>,
    /// The text was longer than the cap and was cut.
    pub truncated: bool,
    /// Binary contents: where they were saved and their size.
    pub path: Option<String>,
    #[ts(type = "number | null")]
    pub bytes: Option<u64>,
}

/// One argument a prompt takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct McpPromptArgument {
    pub name: String,
    pub description: Option<String>,
    pub required: bool,
}

/// One prompt a server lists (offered in the composer as `/<server>:<name>`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct McpPromptView {
    pub server: String,
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub arguments: Vec<McpPromptArgument>,
}

/// A fetched prompt (`prompts/get`) as the message it becomes: its text (messages joined,
/// embedded text resources included) and its images as image parts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct McpPromptMessage {
    pub text: String,
    pub parts: Vec<ContentPart>,
}
