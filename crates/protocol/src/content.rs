//! A message's content parts, and the text read from them (as typed, as the model reads it).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{skill_prompt, AttachedSource, SkillDialect};

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
    /// A finished artifact `artifact_deliver` put in the chat: the window shows it as a card
    /// that opens the artifact; the model is told its id.
    Artifact {
        id: String,
        /// The artifact's file name.
        name: String,
        size: u64,
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
            ContentPart::Artifact { id, name, .. } => format!("[artifact {id}: {name}]"),
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
