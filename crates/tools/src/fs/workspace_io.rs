//! Workspace access for tools in other crates (the browser's uploads and screenshots), through
//! the same sandbox as the file tools.

use super::sandbox::{PathArg, Sandbox};
use crate::error::ToolError;
use std::path::{Path, PathBuf};

/// The absolute path of the existing regular file `path` (argument `field`) inside
/// `workspace`; a path outside the workspace, a folder or a missing file is an error naming it.
pub fn workspace_file(
    workspace: &Path,
    field: &'static str,
    path: &str,
) -> Result<PathBuf, ToolError> {
    let sandbox = Sandbox::workspace(workspace)?;
    let located = sandbox.locate(PathArg::new(field, path))?;
    let relative = located.existing_relative()?;
    let (_, meta) = located.open_file()?;
    if !meta.is_file() {
        return Err(ToolError::invalid(
            field,
            format!("`{path}` is not a regular file"),
        ));
    }
    Ok(sandbox.root_path().join(relative))
}

/// Writes `bytes` to `path` (argument `field`) inside `workspace`, creating parent folders,
/// atomically replacing an existing file.
pub fn write_workspace_file(
    workspace: &Path,
    field: &'static str,
    path: &str,
    bytes: &[u8],
) -> Result<(), ToolError> {
    let sandbox = Sandbox::workspace(workspace)?;
    let target = sandbox.locate(PathArg::new(field, path))?.for_write(true)?;
    target.replace(bytes)
}
