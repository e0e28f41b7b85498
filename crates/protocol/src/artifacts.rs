//! What the desktop's side panel shows of an artifact: its content and counts (a delivered
//! artifact is an artifact part in the chat, [`crate::ContentPart::Artifact`]).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One artifact with its content and counts, for the side panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ArtifactView {
    pub id: String,
    pub session_id: String,
    pub filename: String,
    pub title: String,
    /// `open` or `final`.
    pub state: String,
    #[ts(type = "number")]
    pub bytes: u64,
    pub content: String,
    /// `markdown`, `json`, `csv`, `tsv` or `text`.
    pub format: String,
    /// The first format error, as `line N: message`.
    pub format_error: Option<String>,
    #[ts(type = "number")]
    pub characters: u64,
    #[ts(type = "number")]
    pub cjk_characters: u64,
    #[ts(type = "number")]
    pub english_words: u64,
    #[ts(type = "number")]
    pub lines: u64,
    #[ts(type = "number")]
    pub paragraphs: u64,
    #[ts(type = "number")]
    pub headings: u64,
}
