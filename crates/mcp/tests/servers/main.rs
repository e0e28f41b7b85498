//! The MCP client against real servers from the registries — `@modelcontextprotocol/server-everything`
//! (npm) over stdio and streamable HTTP, `@modelcontextprotocol/server-filesystem` (npm),
//! `mcp-server-time` (PyPI) — and a Python SDK server that crashes, hangs, floods stderr and
//! changes its tools, one behind OAuth and one of the older HTTP+SSE transport; and settings
//! changed while they run. `scripts/setup.sh` installs them
//! under `target/` (nothing is downloaded here).
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Tests talk to their servers with plain reqwest clients: `hearth_net::http::client_builder` is
// for the product's own clients (see clippy.toml).
#![allow(clippy::disallowed_methods)]

mod elicitation;
mod faults;
mod legacy_sse;
mod oauth;
mod registry_servers;
mod resources_prompts;
mod sandbox;
mod settings_changes;
mod startup;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use hearth_mcp::{McpManager, State};
use hearth_protocol::McpServerSettings;
use hearth_tools::ToolContext;
use tokio_util::sync::CancellationToken;

fn target() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target")
}

fn installed(path: PathBuf) -> String {
    assert!(
        path.exists(),
        "{} is missing: run scripts/setup.sh to install the MCP test servers",
        path.display()
    );
    path.display().to_string()
}

/// server-everything's entry point.
fn everything_js() -> String {
    installed(
        target()
            .join("mcp-node/node_modules/@modelcontextprotocol/server-everything/dist/index.js"),
    )
}

fn python() -> String {
    installed(target().join("mcp-python/bin/python"))
}

fn everything(name: &str) -> McpServerSettings {
    McpServerSettings::stdio(name, "node", &[everything_js(), "stdio".into()])
}

fn time_server() -> McpServerSettings {
    time_server_named("time")
}

fn time_server_named(name: &str) -> McpServerSettings {
    McpServerSettings::stdio(
        name,
        &python(),
        &[
            "-m".into(),
            "mcp_server_time".into(),
            "--local-timezone".into(),
            "UTC".into(),
        ],
    )
}

fn faulty(name: &str) -> McpServerSettings {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/servers/fixtures/faulty.py");
    McpServerSettings::stdio(name, &python(), &[script.display().to_string()])
}

struct Rig {
    dir: tempfile::TempDir,
    manager: Arc<McpManager>,
}

impl Rig {
    /// The servers started and waited for until each is ready or failed.
    async fn start(servers: &[McpServerSettings]) -> Rig {
        let dir = tempfile::tempdir().unwrap();
        let manager = McpManager::start(servers, &|_| None, &dir.path().join("logs"));
        manager.settled().await;
        Rig { dir, manager }
    }

    fn ctx(&self) -> ToolContext {
        ToolContext {
            workspace: self.dir.path().to_path_buf(),
            data_dir: self.dir.path().to_path_buf(),
            session_id: "s".into(),
            cancel: CancellationToken::new(),
            images: Default::default(),
            conversation: None,
            sandbox: Default::default(),
        }
    }

    fn state(&self, server: &str) -> State {
        self.status(server).state
    }

    fn status(&self, server: &str) -> hearth_mcp::ServerStatus {
        self.manager
            .statuses()
            .into_iter()
            .find(|s| s.name == server)
            .unwrap()
    }

    async fn call(
        &self,
        tool: &str,
        args: serde_json::Value,
    ) -> Result<serde_json::Value, hearth_tools::ToolError> {
        self.manager.call(tool, args, &self.ctx()).await
    }
}

/// The text parts of a result, joined.
fn text(result: &serde_json::Value) -> String {
    result["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Live (not zombie) processes whose command line contains `needle`.
#[cfg(target_os = "linux")]
fn processes_with(needle: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'));
        if !zombie
            && String::from_utf8_lossy(&cmdline)
                .replace('\0', " ")
                .contains(needle)
        {
            found.push(pid);
        }
    }
    found
}

const WAIT: Duration = Duration::from_secs(20);
