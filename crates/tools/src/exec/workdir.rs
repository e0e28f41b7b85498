//! Where a command runs: the workspace, or a folder inside it named by `cwd`, checked after
//! resolving `..` and symlinks so that no spelling leads outside.

use crate::error::{ErrorKind, ToolError};
use crate::tool::ToolContext;
use std::path::{Path, PathBuf};

/// The workspace folder, created when missing, with symlinks resolved.
pub(crate) async fn workspace_root(ctx: &ToolContext) -> Result<PathBuf, ToolError> {
    let workspace = ctx.workspace.clone();
    let resolved = async {
        tokio::fs::create_dir_all(&workspace).await?;
        tokio::fs::canonicalize(&workspace).await
    };
    resolved.await.map_err(|e| {
        ToolError::internal(format!(
            "the workspace {} cannot be used: {e}",
            ctx.workspace.display()
        ))
    })
}

/// The working folder for `cwd` (relative to the workspace, or absolute inside it); the
/// workspace itself when `cwd` is absent. `field` names the argument in errors.
pub(crate) async fn resolve_cwd(
    root: &Path,
    cwd: Option<&str>,
    field: &str,
) -> Result<PathBuf, ToolError> {
    let Some(cwd) = cwd else {
        return Ok(root.to_path_buf());
    };
    if cwd.trim().is_empty() {
        return Err(ToolError::invalid(field, format!("`{field}` is empty")));
    }
    let joined = root.join(cwd);
    let resolved = tokio::fs::canonicalize(&joined).await.map_err(|e| {
        let kind = if e.kind() == std::io::ErrorKind::NotFound {
            ErrorKind::NotFound
        } else {
            ErrorKind::InvalidArguments
        };
        ToolError {
            kind,
            message: format!("`{field}` {cwd} cannot be used: {e}"),
            field: Some(field.to_string()),
        }
    })?;
    if !resolved.starts_with(root) {
        return Err(ToolError {
            kind: ErrorKind::NotPermitted,
            message: format!(
                "`{field}` {cwd} resolves to {}, outside the workspace {}; commands run only \
                 inside the workspace",
                resolved.display(),
                root.display()
            ),
            field: Some(field.to_string()),
        });
    }
    if !resolved.is_dir() {
        return Err(ToolError::invalid(
            field,
            format!("`{field}` {cwd} is not a folder"),
        ));
    }
    Ok(resolved)
}
