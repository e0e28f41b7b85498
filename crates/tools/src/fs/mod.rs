//! The file tools (read_file, write_file, edit_file, patch, list_dir,
//! search_files, read_spill, read_document) and their CeeCore and PicoBot forms, all over the sandbox.

pub(crate) mod diff;
mod document;
mod edit;
mod encoding;
mod list;
mod patch;
mod read;
pub(crate) mod sandbox;
mod search;
mod spill;
mod workspace_io;
mod write;

pub use document::{ReadDocument, ReadDocumentArgs, UnitArg, DOCUMENT_MAX_CHARS};
pub use edit::{EditFile, EditFileArgs};
pub use encoding::TextEncoding;
pub use list::{ListDir, ListDirArgs, LIST_MAX_ENTRIES};
pub(crate) use patch::{is_blocks as is_patch_blocks, parse as parse_patch};
pub use patch::{Patch, PatchArgs, DEFAULT_FUZZY_THRESHOLD};
pub use read::{CeecoreReadFileArgs, ReadFile, ReadFileArgs, READ_DEFAULT_BYTES, READ_MAX_BYTES};
pub(crate) use sandbox::{PathArg, Sandbox};
pub use search::{
    ContentSearchArgs, FileSearchArgs, SearchFiles, SearchFilesArgs, SearchMode,
    SEARCH_DEFAULT_RESULTS, SEARCH_MAX_RESULTS,
};
pub use spill::{ReadSpill, ReadSpillArgs, SPILL_DEFAULT_CHARS, SPILL_MAX_CHARS};
pub use workspace_io::{workspace_file, write_workspace_file};
pub use write::{WriteFile, WriteFileArgs, WRITE_MAX_BYTES};

use crate::dialect::DialectTool;
use crate::error::ToolError;
use serde_json::Value;

/// Runs file system work off the async runtime.
pub(crate) async fn blocking<F>(work: F) -> Result<Value, ToolError>
where
    F: FnOnce() -> Result<Value, ToolError> + Send + 'static,
{
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ToolError::internal(format!("file tool task failed: {e}")))?
}

/// CeeCore `read_file`: path, encoding, max_bytes → `{path, content, size, encoding}`.
pub fn ceecore_read_file() -> DialectTool<ReadFile, CeecoreReadFileArgs> {
    DialectTool::new("read_file", read::CEECORE_READ_DESCRIPTION, ReadFile)
}

/// PicoBot `file_read`.
pub fn picobot_file_read() -> DialectTool<ReadFile, ReadFileArgs> {
    DialectTool::new("file_read", read::PICOBOT_READ_DESCRIPTION, ReadFile)
}

/// PicoBot `file_write`.
pub fn picobot_file_write() -> DialectTool<WriteFile, WriteFileArgs> {
    DialectTool::new("file_write", write::PICOBOT_WRITE_DESCRIPTION, WriteFile)
}

/// PicoBot `file_edit`.
pub fn picobot_file_edit() -> DialectTool<EditFile, EditFileArgs> {
    DialectTool::new("file_edit", edit::PICOBOT_EDIT_DESCRIPTION, EditFile)
}

/// PicoBot `file_search`: files by name (glob).
pub fn picobot_file_search() -> DialectTool<SearchFiles, FileSearchArgs> {
    DialectTool::new("file_search", search::FILE_SEARCH_DESCRIPTION, SearchFiles)
}

/// PicoBot `content_search`: text in files (regex).
pub fn picobot_content_search() -> DialectTool<SearchFiles, ContentSearchArgs> {
    DialectTool::new(
        "content_search",
        search::CONTENT_SEARCH_DESCRIPTION,
        SearchFiles,
    )
}
