//! Helpers shared by the modules of this binary.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Display;
use std::process::Command;

use hearth_tools::ToolError;
use serde_json::Value;

/// Runs the ignored test `name` of the module `module` (its `module_path!()`) alone, in a child
/// process of this binary with `envs` set, and asserts that it passed: for checks that need
/// process-wide state of their own (PATH, HOME, the sandbox's switches) without changing it for
/// the tests running beside them.
pub fn rerun_alone(module: &str, name: &str, envs: &[(&str, &str)]) {
    // libtest names a test by its path below the crate: drop the crate's own name.
    let below_crate = module.split_once("::").map_or("", |(_, path)| path);
    let test = format!("{below_crate}::{name}");
    let output = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", &test, "--ignored", "--nocapture"])
        .envs(envs.iter().copied())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "{test} in a child process failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The value of a call to `tool` with `args` that had to succeed.
pub fn succeeded(result: Result<Value, ToolError>, tool: &str, args: impl Display) -> Value {
    match result {
        Ok(value) => value,
        Err(e) => panic!("{tool} {args} failed: {e:?}"),
    }
}

/// The error of a call to `tool` with `args` that had to fail.
pub fn failed(result: Result<Value, ToolError>, tool: &str, args: impl Display) -> ToolError {
    match result {
        Ok(value) => panic!("{tool} {args} succeeded: {value}"),
        Err(e) => e,
    }
}
