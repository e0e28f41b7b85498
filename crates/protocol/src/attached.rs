//! What text attached to a message came from (a text file, a document's extracted text, an MCP
//! resource), kept as data beside the text the model reads, for the window's chip.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Where a [`crate::ContentPart::Attached`] text came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AttachedSource {
    /// A text file, inlined.
    File { name: String },
    /// A PDF or Office file as its extracted text (the original copied into the workspace).
    Document {
        name: String,
        /// `pdf`, `docx`, `pptx`, `xlsx`…
        format: String,
        /// `page`, `slide`, `sheet` or `document`.
        unit_kind: String,
        /// Units whose text went in (the last one partly when `cut`).
        #[ts(type = "number")]
        included: u64,
        #[ts(type = "number")]
        count: u64,
        cut: bool,
        /// A PDF without a text layer (scanned): no text went in.
        no_text: bool,
    },
    /// A resource of an MCP server.
    McpResource { server: String, uri: String },
}
