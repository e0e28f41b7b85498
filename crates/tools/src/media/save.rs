//! Where a generated image or audio file lands: a path the call names (inside the workspace,
//! with the format's extension) or a fresh name under `generated/`, written atomically through
//! the file sandbox.

use super::GENERATED_DIR;
use crate::error::ToolError;
use crate::fs::sandbox::{PathArg, Sandbox};
use std::path::{Path, PathBuf};

/// A file written into the workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Saved {
    /// Relative to the workspace, `/`-separated.
    pub(crate) path: String,
    pub(crate) absolute: PathBuf,
}

/// The path a generated `extension` file goes to: `requested` when given (its extension must
/// be `extension`), else `generated/<stem>-<time>-<id>.<extension>`.
pub(crate) fn target_path(
    requested: Option<&str>,
    field: &str,
    stem: &str,
    extension: &str,
) -> Result<String, ToolError> {
    match requested.map(str::trim).filter(|p| !p.is_empty()) {
        Some(path) => {
            let given = Path::new(path)
                .extension()
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase);
            if given.as_deref() != Some(extension) {
                return Err(ToolError::invalid(
                    field,
                    format!("must end in .{extension}: this call makes {extension} data"),
                ));
            }
            Ok(path.to_string())
        }
        None => {
            let time = chrono::Local::now().format("%Y%m%d-%H%M%S");
            let id = uuid::Uuid::new_v4().simple().to_string();
            Ok(format!(
                "{GENERATED_DIR}/{stem}-{time}-{}.{extension}",
                &id[..8]
            ))
        }
    }
}

/// Writes `bytes` at `path` in `workspace` (parents created, atomic replace); blocking.
pub(crate) fn save(
    workspace: &Path,
    path: &str,
    field: &'static str,
    bytes: &[u8],
) -> Result<Saved, ToolError> {
    let sandbox = Sandbox::workspace(workspace)?;
    let target = sandbox.locate(PathArg::new(field, path))?.for_write(true)?;
    target.replace(bytes)?;
    let relative = sandbox
        .locate(PathArg::new(field, path))?
        .existing_relative()?;
    let absolute = sandbox.root_path().join(&relative);
    Ok(Saved {
        path: relative,
        absolute,
    })
}

/// [`save`] off the async runtime.
pub(crate) async fn save_async(
    workspace: PathBuf,
    path: String,
    field: &'static str,
    bytes: Vec<u8>,
) -> Result<Saved, ToolError> {
    tokio::task::spawn_blocking(move || save(&workspace, &path, field, &bytes))
        .await
        .map_err(|e| ToolError::internal(format!("file write task failed: {e}")))?
}
