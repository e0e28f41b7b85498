//! Stored messages: who wrote them, their lifecycle and kind, and the pages and search hits
//! the window loads them in.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{parts_text, AppError, ContentPart, ToolCall, ToolResult, Usage};

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
