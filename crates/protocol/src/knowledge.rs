//! The knowledge base as the tools, the CLI and the Knowledge page see it: the index's status
//! with the running pass's progress and the files that could not be read, cited snippets, and
//! how the desktop opened a cited file.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::DocumentError;

/// What one indexing pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct IndexReport {
    /// Files read and indexed anew (new or changed).
    #[ts(type = "number")]
    pub indexed: u64,
    /// Files whose size and modification time, or content, showed no change.
    #[ts(type = "number")]
    pub unchanged: u64,
    /// Files gone from the folders (their chunks with them).
    #[ts(type = "number")]
    pub removed: u64,
    /// Files that could not be read (their error is kept).
    #[ts(type = "number")]
    pub failed: u64,
    /// Bytes read to index.
    #[ts(type = "number")]
    pub bytes: u64,
    #[ts(type = "number")]
    pub millis: u64,
}

/// Where the current (or last) pass is.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Progress {
    pub running: bool,
    /// Files of the pass, and how many are done.
    #[ts(type = "number")]
    pub total: u64,
    #[ts(type = "number")]
    pub done: u64,
    /// The file being read.
    pub current: Option<String>,
    /// The last finished pass.
    pub last: Option<IndexReport>,
}

/// A file that could not be read, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct FileError {
    pub path: String,
    pub error: FileProblem,
}

/// Why a file could not be read: the reader's typed error, which the UI words in its language,
/// or the English sentence an index written by an older version stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(untagged)]
pub enum FileProblem {
    Document(DocumentError),
    Text(String),
}

impl FileProblem {
    /// The problem as the index stores it: the typed error as JSON.
    pub fn stored(error: &DocumentError) -> String {
        serde_json::to_string(error).unwrap_or_else(|_| error.to_string())
    }

    /// A stored problem read back: JSON of a [`DocumentError`], else an older index's sentence.
    pub fn from_stored(stored: String) -> Self {
        serde_json::from_str(&stored)
            .map(FileProblem::Document)
            .unwrap_or(FileProblem::Text(stored))
    }
}

impl std::fmt::Display for FileProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileProblem::Document(error) => error.fmt(f),
            FileProblem::Text(text) => f.write_str(text),
        }
    }
}

/// `knowledge_index status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct KnowledgeStatus {
    pub folders: Vec<String>,
    #[ts(type = "number")]
    pub files: u64,
    #[ts(type = "number")]
    pub chunks: u64,
    #[ts(type = "number")]
    pub errors: u64,
    /// Unix milliseconds.
    #[ts(type = "number | null")]
    pub last_indexed: Option<i64>,
    pub watching: bool,
    pub progress: Progress,
    pub file_errors: Vec<FileError>,
}

/// A search result: the snippet and where it comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Citation {
    /// The file's absolute path.
    pub file: String,
    /// `page`, `slide`, `sheet` or `line`.
    pub unit: String,
    #[ts(type = "number")]
    pub first: u64,
    #[ts(type = "number")]
    pub last: u64,
    /// The sheet's name or slide title.
    pub label: Option<String>,
    /// `report.pdf, page 2` or `notes.md, lines 10-24`.
    pub citation: String,
    pub snippet: String,
    pub score: f64,
}

/// How the desktop opened a citation's file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum Opened {
    /// At the cited PDF page or text line.
    AtPlace,
    /// In the default app: no installed viewer takes the page or line.
    NoViewer,
    /// In the default app: the format has no place a viewer takes (a slide, a sheet, a line of
    /// text extracted from DOCX or HTML).
    NoPlace,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_file_problem_is_stored_typed_and_an_older_sentence_reads_back_as_text() {
        let error = DocumentError::TooLarge { size: 9, limit: 5 };
        let stored = FileProblem::stored(&error);
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&stored).unwrap(),
            serde_json::json!({"code": "too_large", "params": {"size": 9, "limit": 5}})
        );
        assert_eq!(
            FileProblem::from_stored(stored),
            FileProblem::Document(error)
        );
        let old = FileProblem::from_stored("the file is empty (0 bytes)".into());
        assert_eq!(old, FileProblem::Text("the file is empty (0 bytes)".into()));
        // The UI gets the typed error as it is, an older sentence as a string.
        assert_eq!(
            serde_json::to_value(FileProblem::Document(DocumentError::Empty)).unwrap(),
            serde_json::json!({"code": "empty"})
        );
        assert_eq!(
            serde_json::to_value(&old).unwrap(),
            serde_json::json!("the file is empty (0 bytes)")
        );
    }
}
