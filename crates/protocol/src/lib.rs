//! Types exchanged between the UI, the engine and its adapters: sessions, messages, tool calls and
//! the events a turn emits while it runs.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

mod agent_settings;
mod agents;
mod artifacts;
mod attached;
mod bounds;
mod browser_settings;
mod channel_settings;
mod choices;
mod cjk;
mod confirmation;
mod document_error;
mod document_settings;
mod error_texts;
mod errors;
mod events;
mod forms;
mod knowledge;
mod local_models;
mod mcp_oauth_settings;
mod mcp_resources;
mod mcp_view;
mod media_settings;
mod model_downloads;
mod planning;
mod policy_reason;
mod providers;
mod security_settings;
mod settings;
mod skill_part;
mod startup;
mod texts;
mod tool_error_kind;
mod tool_view;
mod updates;
mod window;
pub use agent_settings::*;
pub use agents::*;
pub use artifacts::*;
pub use attached::*;
pub use browser_settings::*;
pub use channel_settings::*;
pub use choices::*;
pub use cjk::{estimate_tokens, is_cjk, is_cjk_ideograph, is_cjk_letter, is_hangul};
pub use confirmation::*;
pub use document_error::*;
pub use document_settings::*;
pub use errors::*;
pub use events::*;
pub use forms::*;
pub use knowledge::*;
pub use local_models::*;
pub use mcp_oauth_settings::*;
pub use mcp_resources::*;
pub use mcp_view::*;
pub use media_settings::*;
pub use model_downloads::*;
pub use planning::*;
pub use policy_reason::*;
pub use providers::*;
pub use security_settings::*;
pub use settings::*;
pub use skill_part::*;
pub use startup::*;
pub use texts::*;
pub use tool_error_kind::*;
pub use tool_view::*;
pub use updates::*;
pub use window::*;

/// Where ts-rs writes the TypeScript bindings, for the tests that write generated files beside
/// them.
#[cfg(test)]
pub(crate) fn bindings_dir() -> std::path::PathBuf {
    let dir = std::env::var("TS_RS_EXPORT_DIR").unwrap_or_else(|_| "bindings".to_string());
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(dir)
}

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    System,
    User,
    Assistant,
    Tool,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "system" => Some(Role::System),
            "user" => Some(Role::User),
            "assistant" => Some(Role::Assistant),
            "tool" => Some(Role::Tool),
            _ => None,
        }
    }
}

/// Lifecycle of a stored message. A reply is `streaming` while the model writes it; rows still
/// `streaming` at start-up (the process died) become `interrupted`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum MessageStatus {
    Complete,
    Streaming,
    Interrupted,
    Failed,
}

impl MessageStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            MessageStatus::Complete => "complete",
            MessageStatus::Streaming => "streaming",
            MessageStatus::Interrupted => "interrupted",
            MessageStatus::Failed => "failed",
        }
    }

    pub fn parse(s: &str) -> Option<MessageStatus> {
        match s {
            "complete" => Some(MessageStatus::Complete),
            "streaming" => Some(MessageStatus::Streaming),
            "interrupted" => Some(MessageStatus::Interrupted),
            "failed" => Some(MessageStatus::Failed),
            _ => None,
        }
    }
}

/// One piece of a message's content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentPart {
    Text {
        text: String,
    },
    /// An image for vision-capable models; `data` is base64 without a `data:` prefix.
    Image {
        mime_type: String,
        data: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// An audio clip a tool returned, for models that take audio input; `data` is base64.
    Audio {
        mime_type: String,
        data: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// A file the user attached that was copied into the workspace; the model is told its path.
    File {
        name: String,
        path: String,
        size: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
    },
    /// Text attached to the message (a text file, a document's text, an MCP resource): the model
    /// reads `text`, headed by what it is; the window shows a chip from `source`.
    Attached {
        text: String,
        source: AttachedSource,
    },
    /// The skill the message runs (the user's `/skill`), kept beside the typed text so the
    /// message shows what was typed; the model reads [`skill_prompt`] in its place.
    Skill {
        name: String,
        dialect: SkillDialect,
        /// The skill's folder.
        folder: String,
        /// The file of the instructions (`SKILL.md`, `prompt.md`), inside `folder`.
        instructions_file: String,
        /// The instructions as written when the message was sent.
        instructions: String,
    },
}

impl ContentPart {
    pub fn text(text: impl Into<String>) -> ContentPart {
        ContentPart::Text { text: text.into() }
    }
}

/// The text the user typed: the message's text parts, each on its own line (attached text, a
/// skill's instructions, images and files left out).
pub fn typed_text(parts: &[ContentPart]) -> String {
    let texts: Vec<&str> = parts
        .iter()
        .filter_map(|part| match part {
            ContentPart::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    texts.join("\n")
}

/// Concatenated text of a message's parts as the model reads them (images omitted, files
/// named, a skill's instructions in full).
pub fn parts_text(parts: &[ContentPart]) -> String {
    let mut out = String::new();
    for part in parts {
        let piece = match part {
            ContentPart::Text { text } | ContentPart::Attached { text, .. } => text.clone(),
            ContentPart::Image { name, .. } => match name {
                Some(n) => format!("[image: {n}]"),
                None => "[image]".to_string(),
            },
            ContentPart::Audio { name, .. } => match name {
                Some(n) => format!("[audio: {n}]"),
                None => "[audio]".to_string(),
            },
            ContentPart::File { name, path, .. } => format!("[file: {name} at {path}]"),
            ContentPart::Skill {
                name,
                folder,
                instructions_file,
                instructions,
                ..
            } => skill_prompt(name, folder, instructions_file, instructions),
        };
        if !out.is_empty() && !piece.is_empty() {
            out.push('\n');
        }
        out.push_str(&piece);
    }
    out
}

/// A tool call the model asked for. `arguments` is the raw JSON text the model produced.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: String,
    /// Opaque state the provider attached to the call (Gemini's thought signature), handed back
    /// with the call in later requests; the provider refuses the history without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
}

/// The outcome of one tool call, as stored and as shown to the model. `content` is JSON text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ToolResult {
    pub call_id: String,
    pub name: String,
    pub content: String,
    pub is_error: bool,
    pub duration_ms: u64,
    /// Images (and audio clips) the tool attached, named by the file they were saved to: sent to
    /// the model as image (audio) parts where it takes them, images shown on the tool card.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ContentPart>,
    /// What the tool card shows, in order, built by `hearth-tools` when the result is delivered
    /// to a window (never stored: rows are viewed when they are loaded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub views: Vec<ToolView>,
}

/// Token usage reported by a provider.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl Usage {
    /// Whether a server reported counts: one that sends no usage leaves both at zero.
    pub fn reported(&self) -> bool {
        self.input_tokens > 0 || self.output_tokens > 0
    }

    pub fn add(&mut self, other: Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
    }
}

/// Why the model stopped producing output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    EndTurn,
    ToolUse,
    MaxTokens,
    ContentFilter,
    Other(String),
}

/// What a stored message is: an ordinary turn message, or a summary standing in for older ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum MessageKind {
    Normal,
    /// Summarizes every message of the session with an id up to `Message::summary_through`.
    Summary,
}

/// A stored message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Message {
    pub id: i64,
    pub session_id: String,
    pub role: Role,
    pub kind: MessageKind,
    pub content: Vec<ContentPart>,
    #[serde(default)]
    pub tool_calls: Vec<ToolCall>,
    #[serde(default)]
    pub tool_result: Option<ToolResult>,
    pub status: MessageStatus,
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub usage: Option<Usage>,
    #[serde(default)]
    pub error: Option<String>,
    /// The typed form of `error` (shown in the viewer's language); `None` on rows stored before
    /// it was kept, which show `error` as it is.
    #[serde(default)]
    pub error_code: Option<AppError>,
    /// For summaries: the id of the last message the summary covers.
    #[serde(default)]
    pub summary_through: Option<i64>,
    /// Unix milliseconds.
    pub created_at: i64,
    pub updated_at: i64,
}

impl Message {
    pub fn text(&self) -> String {
        parts_text(&self.content)
    }
}

/// A stored conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Session {
    /// `<channel>:<id>`, e.g. `desktop:<uuid>` or `cli:<uuid>`.
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub workspace: Option<String>,
    pub tool_profile: String,
    pub pinned: bool,
    pub message_count: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A slice of a session's messages, oldest first, as the chat window loads them: the newest
/// ones, or those before a message the window already has.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct MessagePage {
    pub messages: Vec<Message>,
    /// Whether the session has messages older than the first one here.
    pub has_older: bool,
    /// The token usage summed over those older messages (the chat's total is this plus the
    /// usage of the messages the window holds).
    pub older_usage: Usage,
}

/// A full-text search hit over messages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SearchHit {
    pub message_id: i64,
    pub session_id: String,
    pub session_title: String,
    pub role: Role,
    pub snippet: String,
    pub created_at: i64,
}
