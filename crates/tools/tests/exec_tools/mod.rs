//! Integration tests of the execution tools (`exec`/`bash`, `execute_code`, `process`, `pty`)
//! through the registry, with real processes, a real filesystem and real terminals.

mod code;
mod malformed;
mod path_tweaks;
mod process;
mod pty;
mod sandbox;
mod shell;

use crate::support::{failed, succeeded};
use hearth_tools::{builtin_registry, Dialect, Registry, ToolContext, ToolError};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A temporary root holding `workspace/` and the data dir (`spill/` lands there).
pub struct Fixture {
    pub dir: tempfile::TempDir,
    pub ctx: ToolContext,
}

impl Fixture {
    pub fn create() -> Self {
        let dir = match tempfile::tempdir() {
            Ok(dir) => dir,
            Err(e) => panic!("tempdir: {e}"),
        };
        let workspace = dir.path().join("workspace");
        if let Err(e) = std::fs::create_dir(&workspace) {
            panic!("workspace: {e}");
        }
        let ctx = ToolContext::new(workspace, dir.path().to_path_buf(), "desktop:exec-test");
        Self { dir, ctx }
    }

    /// The workspace with symlinks resolved (what commands see as their folder).
    pub fn workspace(&self) -> PathBuf {
        match std::fs::canonicalize(&self.ctx.workspace) {
            Ok(path) => path,
            Err(e) => panic!("canonicalize: {e}"),
        }
    }

    pub fn write(&self, relative: &str, content: &str) {
        let path = self.ctx.workspace.join(relative);
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        if let Err(e) = std::fs::write(&path, content) {
            panic!("write {}: {e}", path.display());
        }
    }
}

/// Dispatches `tool` with `args` on `registry`.
pub async fn call(
    registry: &Registry,
    fixture: &Fixture,
    tool: &str,
    args: &str,
) -> Result<Value, ToolError> {
    registry.dispatch(tool, args, &fixture.ctx).await
}

pub async fn ok(registry: &Registry, fixture: &Fixture, tool: &str, args: &str) -> Value {
    succeeded(call(registry, fixture, tool, args).await, tool, args)
}

pub async fn err(registry: &Registry, fixture: &Fixture, tool: &str, args: &str) -> ToolError {
    failed(call(registry, fixture, tool, args).await, tool, args)
}

pub fn hearth() -> Registry {
    builtin_registry(Dialect::Hearth)
}

/// A marker no other process on the machine carries in its command line.
pub fn marker(label: &str) -> String {
    format!("hearth-test-{label}-{}-{}", std::process::id(), nanos())
}

fn nanos() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

/// Live (non-zombie) processes whose command line contains `marker`, from /proc.
pub fn processes_with(marker: &str) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            String::from_utf8_lossy(&cmdline).contains(marker) && *pid != std::process::id()
        })
        .collect()
}

/// Waits up to `limit` for `condition`; returns whether it became true.
pub async fn eventually(limit: Duration, mut condition: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    loop {
        if condition() {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A command that leaves a process carrying `marker` alive for 300 s (`sh` runs `sleep` as a
/// child instead of exec-ing it, so the marker stays visible in /proc).
pub fn lingering(marker: &str) -> String {
    format!("sh -c 'sleep 300; :' {marker}")
}

/// Secrets set in this test process: none may reach a child.
pub const SECRET_NAMES: [&str; 7] = [
    "FOO_API_KEY",
    "HEARTH_API_KEY",
    "OPENAI_API_KEY",
    "GITHUB_TOKEN",
    "DB_PASSWORD",
    "MY_SECRET",
    "HEARTH_HOME",
];

/// Puts [`SECRET_NAMES`] into this process's environment (idempotent).
pub fn plant_secrets() {
    static PLANTED: std::sync::Once = std::sync::Once::new();
    PLANTED.call_once(|| {
        for name in SECRET_NAMES {
            std::env::set_var(name, format!("leaked-{name}"));
        }
    });
}

/// Asserts that `env` output (one NAME=value per line) has none of the planted secrets.
pub fn assert_no_secrets(env_output: &str) {
    for name in SECRET_NAMES {
        assert!(
            !env_output.contains(&format!("{name}=")) && !env_output.contains("leaked-"),
            "{name} reached the child:\n{env_output}"
        );
    }
    assert!(env_output.contains("PATH="), "PATH is kept:\n{env_output}");
}

pub fn path_of(value: &Value) -> &Path {
    Path::new(value.as_str().unwrap_or_default())
}
