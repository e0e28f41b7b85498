//! Integration tests of hearth-tools through its public API: the registry per dialect,
//! argument validation, the calculator, device info, the output cap and the generated tool
//! reference.

mod calculator;
mod device_info;
mod dialects;
mod output;
mod reference;
#[cfg(unix)]
mod skills;
mod validation;

use hearth_tools::{builtin_registry, Dialect, Registry, ToolContext, ToolError};
use serde_json::Value;
use std::path::Path;

/// A context whose data dir and workspace are real folders under `root`.
pub fn context(root: &Path) -> ToolContext {
    ToolContext::new(root.join("workspace"), root.to_path_buf(), "desktop:test")
}

pub fn registry(dialect: Dialect) -> Registry {
    builtin_registry(dialect)
}

pub fn temp() -> tempfile::TempDir {
    match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => panic!("tempdir: {e}"),
    }
}

/// Dispatches on the hearth registry with a throwaway data dir.
pub async fn call(tool: &str, args: &str) -> Result<Value, ToolError> {
    let dir = temp();
    registry(Dialect::Hearth)
        .dispatch(tool, args, &context(dir.path()))
        .await
}

/// Dispatches and expects success.
pub async fn ok(tool: &str, args: &str) -> Value {
    match call(tool, args).await {
        Ok(value) => value,
        Err(e) => panic!("{tool} {args} failed: {e:?}"),
    }
}

/// Dispatches and expects a failure.
pub async fn err(tool: &str, args: &str) -> ToolError {
    match call(tool, args).await {
        Ok(value) => panic!("{tool} {args} succeeded: {value}"),
        Err(e) => e,
    }
}
