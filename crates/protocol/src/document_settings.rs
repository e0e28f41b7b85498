//! The settings of long deliverables and the local knowledge base (`[artifacts]`,
//! `[knowledge]` in `config.toml`), and what the desktop shows of them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// `[artifacts]`: what `artifact_create` accepts and how `artifact_deliver` falls back to text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(default, deny_unknown_fields)]
pub struct ArtifactSettings {
    /// File name extensions an artifact may have (lower case, without the dot).
    pub allowed_extensions: Vec<String>,
    /// The most numbered text segments `artifact_deliver` sends to a channel that takes no
    /// files; a longer artifact is refused there.
    pub max_text_segments: u32,
}

impl Default for ArtifactSettings {
    fn default() -> Self {
        ArtifactSettings {
            allowed_extensions: ["md", "txt", "csv", "json", "html", "xml", "yaml", "tsv"]
                .map(String::from)
                .to_vec(),
            max_text_segments: 20,
        }
    }
}

/// `[knowledge]`: the folders `knowledge_index` indexes and `knowledge_search` searches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(default, deny_unknown_fields)]
pub struct KnowledgeSettings {
    /// Absolute folders; empty means `<workspace>/knowledge`.
    pub folders: Vec<String>,
    /// Follow changes to the folders while Hearth runs.
    pub watch: bool,
}

impl Default for KnowledgeSettings {
    fn default() -> Self {
        KnowledgeSettings {
            folders: Vec::new(),
            watch: true,
        }
    }
}
