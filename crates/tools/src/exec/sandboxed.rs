//! The sandbox of the programs the execution tools start: the user's settings from the call's
//! context, their home's secrets and Hearth's data folder unreadable, the folders the tool
//! names writable plus a temp folder of the session; and how its outcome shows in results.

use super::env::ChildEnv;
use crate::error::{ErrorKind, ToolError};
use crate::tool::ToolContext;
use hearth_sandbox::{Isolation, Sandbox, SandboxError};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// The sandbox for a program of `ctx` started with `env`, writing only in `writable`.
pub(crate) fn sandbox_for(ctx: &ToolContext, env: &ChildEnv, writable: &[&Path]) -> Sandbox {
    let home = env.get("HOME").map(PathBuf::from);
    writable.iter().fold(
        Sandbox::new(&ctx.sandbox, home.as_deref(), Some(&ctx.data_dir)),
        |sandbox, folder| sandbox.writable(*folder),
    )
}

/// The session's temp folder (created), which commands may write and find as `TMPDIR`.
pub(crate) async fn session_tmp(ctx: &ToolContext) -> Result<PathBuf, ToolError> {
    let name: String = ctx
        .session_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let dir = ctx.data_dir.join("tmp").join(name);
    tokio::fs::create_dir_all(&dir).await.map_err(|e| {
        ToolError::internal(format!("could not create the session's temp folder: {e}"))
    })?;
    Ok(dir)
}

/// A [`SandboxError`] as the tool error the model reads.
pub(crate) fn refused(error: SandboxError) -> ToolError {
    let kind = match error {
        SandboxError::Unavailable { .. } => ErrorKind::Unavailable,
        SandboxError::Spawn { .. } | SandboxError::Setup(_) => ErrorKind::Internal,
    };
    ToolError::new(kind, error.to_string())
}

/// Adds `isolation` (and `isolation_reason` when something is missing) to a result.
pub(crate) fn report(result: &mut Map<String, Value>, isolation: &Isolation) {
    result.insert("isolation".into(), json!(isolation.kind));
    if let Some(reason) = &isolation.reason {
        result.insert("isolation_reason".into(), json!(reason));
    }
}
