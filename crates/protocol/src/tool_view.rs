//! What a tool card shows of a call, as typed data: the diff of a file tool, the hits of a search,
//! a generated image or audio file, the browser's page, cited snippets, a terminal, a command's
//! or a skill script's run, a tool error, or the result as plain text. Built by `hearth-tools` from the canonical tool, the call's
//! arguments and its result, so the UI never reads a tool's JSON or knows a dialect's names.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{Citation, ToolErrorKind};

/// The typed view of one tool call, rendered by `kind`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolView {
    /// The change a file tool made, or (on an approval) would make.
    Diff {
        path: String,
        lines: Vec<DiffLine>,
        added: u32,
        removed: u32,
        /// The tool cut the diff.
        truncated: bool,
    },
    /// Matched lines grouped by file.
    SearchHits {
        pattern: String,
        groups: Vec<SearchGroup>,
        /// How many matches the tool reported (may exceed the lines here).
        count: u32,
        truncated: bool,
    },
    /// The files a name search found.
    FileList {
        pattern: String,
        files: Vec<FoundFile>,
        truncated: bool,
    },
    /// A generated image or audio file in the chat's workspace.
    Media {
        media: MediaKind,
        /// Relative to the chat's workspace.
        path: String,
        mime_type: String,
    },
    /// What the browser did and the page it is on.
    BrowserPage {
        action: String,
        url: Option<String>,
        title: Option<String>,
        /// The outline the model read.
        snapshot: Option<String>,
    },
    /// The cited snippets of a knowledge-base search.
    Citations { hits: Vec<Citation> },
    /// The terminal session a call started.
    Terminal { session_id: String },
    /// A command, a code run or a skill's script that ran to its end: what ran, how it ended,
    /// and its output.
    CommandRun {
        /// What ran: the command line, the code's language, or the skill's script and its
        /// arguments.
        command: String,
        /// The skill whose script ran.
        skill: Option<String>,
        /// `None` when a signal ended it or it timed out.
        exit_code: Option<i32>,
        /// The signal that ended it.
        signal: Option<i32>,
        timed_out: bool,
        #[ts(type = "number")]
        duration_ms: u64,
        stdout: String,
        stderr: String,
        /// The output was over the model's limit: only each stream's start and end are here.
        truncated: bool,
    },
    /// A failed call's error as the model read it.
    Failure {
        error: ToolErrorKind,
        message: String,
        /// The argument at fault.
        field: Option<String>,
    },
    /// A result of a tool with a view of its own that could not be read as one (malformed or
    /// cut), shown as text.
    Text {
        text: String,
        /// Only the start of the result is here.
        truncated: bool,
    },
}

/// The kind of one diff line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum DiffLineKind {
    /// A `---` / `+++` header.
    File,
    /// A `@@` header (or a SEARCH/REPLACE block's number).
    Hunk,
    Add,
    Del,
    Context,
    /// Text outside hunks.
    Note,
}

/// One line of a diff, without its leading marker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct DiffLine {
    pub kind: DiffLineKind,
    pub text: String,
    /// In the old file (removed and context lines).
    pub old_no: Option<u32>,
    /// In the new file (added and context lines).
    pub new_no: Option<u32>,
}

/// The matched lines of one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SearchGroup {
    pub path: String,
    pub hits: Vec<SearchLine>,
}

/// One matched line, in pieces: `hit` pieces are what the pattern matched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SearchLine {
    pub line_number: u32,
    pub segments: Vec<LineSegment>,
}

/// A piece of a matched line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct LineSegment {
    pub text: String,
    pub hit: bool,
}

/// One file a search found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct FoundFile {
    pub path: String,
    /// `file`, `dir`, `symlink`…
    pub kind: String,
}

/// What kind of media a tool made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum MediaKind {
    Image,
    Audio,
}
