//! The MCP servers of one Hearth process: started in the background, their tools offered to
//! every registry built while they are ready, and every one shut down (gracefully, then its
//! process group killed) when Hearth exits or the manager is dropped.

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hearth_protocol::McpServerSettings;
use hearth_tools::{DynTool, ErrorKind, ToolContext, ToolError};
use serde_json::Value;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::config::{resolve, ConfigError, ServerSpec, Transport};
use crate::log::ServerLog;
use crate::names::qualified_name;
use crate::server::Server;
use crate::status::{ServerStatus, State};
use crate::tool::{McpTool, ToolInfo};

pub struct McpManager {
    /// This manager, for the `tool_search` tool it hands out.
    me: std::sync::Weak<McpManager>,
    servers: Vec<Arc<Server>>,
    tasks: Mutex<Vec<JoinHandle<()>>>,
    shutdown: CancellationToken,
}

impl McpManager {
    /// Starts every enabled server of `settings` in the background (call inside a Tokio
    /// runtime): [`McpManager::new`] then [`McpManager::start_background`].
    pub fn start(
        settings: &[McpServerSettings],
        secret: &dyn Fn(&str) -> Option<String>,
        log_dir: &Path,
    ) -> Arc<McpManager> {
        let manager = McpManager::new(settings, secret, log_dir);
        manager.start_background();
        manager
    }

    /// The servers of `settings`, not started yet. Secrets come from `secret` (keychain account
    /// → value); logs go to `log_dir`. A server whose settings are bad is shown failed with the
    /// reason and never started.
    pub fn new(
        settings: &[McpServerSettings],
        secret: &dyn Fn(&str) -> Option<String>,
        log_dir: &Path,
    ) -> Arc<McpManager> {
        let shutdown = CancellationToken::new();
        let mut servers = Vec::new();
        let mut seen = HashSet::new();
        for entry in settings {
            let log = ServerLog::new(log_dir, &crate::names::sanitize(&entry.name));
            let resolved = if seen.insert(entry.name.as_str()) {
                resolve(entry, secret).map_err(|e| e.to_string())
            } else {
                Err(ConfigError::Duplicate(entry.name.clone()).to_string())
            };
            let (spec, state) = match resolved {
                Ok(spec) if entry.enabled => (spec, State::Starting),
                Ok(spec) => (spec, State::Disabled),
                Err(reason) => (placeholder(entry), State::Failed { reason }),
            };
            servers.push(Arc::new(Server::new(spec, log, state, shutdown.clone())));
        }
        Arc::new_cyclic(|me| McpManager {
            me: me.clone(),
            servers,
            tasks: Mutex::new(Vec::new()),
            shutdown,
        })
    }

    /// Starts the supervisor of every enabled server (once; call inside a Tokio runtime).
    pub fn start_background(&self) {
        let Ok(mut tasks) = self.tasks.lock() else {
            return;
        };
        if !tasks.is_empty() || self.shutdown.is_cancelled() {
            return;
        }
        for server in &self.servers {
            if server.state() == State::Starting {
                tasks.push(tokio::spawn(server.clone().supervise()));
            }
        }
    }

    /// A watch on every server's state and tools.
    pub fn watch(&self) -> Changes {
        Changes(self.servers.iter().map(|s| s.changes()).collect())
    }

    /// Waits until no server is still starting, each at most its start-up timeout.
    pub async fn settled(&self) {
        let waits = self
            .servers
            .iter()
            .map(|server| server.settled(server.spec.startup_timeout + Duration::from_secs(1)));
        futures::future::join_all(waits).await;
    }

    /// Waits (at most `limit`) until `condition` holds of the manager, re-checking whenever a
    /// server's state or tools change; returns whether it held.
    pub async fn wait_until(
        &self,
        limit: Duration,
        condition: impl Fn(&McpManager) -> bool,
    ) -> bool {
        let mut changes = self.watch();
        let wait = async {
            while !condition(self) {
                if !changes.next().await {
                    return false;
                }
            }
            true
        };
        tokio::time::timeout(limit, wait).await.unwrap_or(false)
    }

    /// The status of every configured server, in configuration order.
    pub fn statuses(&self) -> Vec<ServerStatus> {
        let tools = self.tool_infos();
        self.servers
            .iter()
            .map(|server| {
                let offered = tools
                    .iter()
                    .filter(|t| t.server == server.spec.name)
                    .count();
                server.status(offered)
            })
            .collect()
    }

    /// The offered tools of the ready servers, named uniquely across servers.
    pub fn tool_infos(&self) -> Vec<ToolInfo> {
        self.tools_with_servers()
            .into_iter()
            .map(|(info, _)| info)
            .collect()
    }

    fn tools_with_servers(&self) -> Vec<(ToolInfo, Arc<Server>)> {
        let mut taken = HashSet::new();
        let mut out = Vec::new();
        for server in &self.servers {
            let spec = &server.spec;
            for tool in server.tools() {
                if !spec.offers(&tool.name) {
                    continue;
                }
                let read_only = tool
                    .annotations
                    .as_ref()
                    .and_then(|a| a.read_only_hint)
                    .unwrap_or(false);
                let info = ToolInfo {
                    name: qualified_name(&spec.name, &tool.name, &mut taken),
                    server: spec.name.clone(),
                    tool: tool.name.to_string(),
                    description: tool.description.as_deref().unwrap_or("").to_string(),
                    input_schema: Value::Object((*tool.input_schema).clone()),
                    output_schema: tool
                        .output_schema
                        .as_ref()
                        .map(|s| Value::Object((**s).clone())),
                    read_only,
                    unasked: spec.runs_unasked(&tool.name, read_only),
                };
                out.push((info, server.clone()));
            }
        }
        out
    }

    /// The offered tools as registry tools.
    pub fn registry_tools(&self) -> Vec<Arc<dyn DynTool>> {
        self.tools_with_servers()
            .into_iter()
            .map(|(info, server)| Arc::new(McpTool { info, server }) as Arc<dyn DynTool>)
            .collect()
    }

    /// The `tool_search` tool over this manager's tools.
    pub fn search_tool(&self) -> Arc<dyn DynTool> {
        Arc::new(crate::search::ToolSearch {
            manager: self.me.clone(),
        })
    }

    /// Calls `tool` (the model's name, `mcp__…`) directly, without the registry or policy.
    pub async fn call(
        &self,
        tool: &str,
        arguments: Value,
        ctx: &ToolContext,
    ) -> Result<Value, ToolError> {
        let found = self.registry_tools().into_iter().find(|t| t.name() == tool);
        let Some(found) = found else {
            return Err(ToolError::new(
                ErrorKind::NotFound,
                format!("no MCP tool named `{tool}` is ready"),
            ));
        };
        let (_, bound) = found.prepare(arguments)?;
        bound(ctx).await
    }

    /// Shuts every server down: asked to exit, then its process group killed.
    pub async fn shutdown(&self) {
        self.shutdown.cancel();
        let tasks = self
            .tasks
            .lock()
            .map(|mut t| std::mem::take(&mut *t))
            .unwrap_or_default();
        for task in tasks {
            let _ = task.await;
        }
    }
}

/// Changes of the servers' state or tools since the watch was made or last woke.
pub struct Changes(Vec<tokio::sync::watch::Receiver<u64>>);

impl Changes {
    /// Waits for the next change; false when there are no servers or they are gone.
    pub async fn next(&mut self) -> bool {
        if self.0.is_empty() {
            return false;
        }
        let changes = self.0.iter_mut().map(|r| Box::pin(r.changed()));
        futures::future::select_all(changes).await.0.is_ok()
    }
}

impl Drop for McpManager {
    /// Without a [`McpManager::shutdown`], no server outlives the manager either.
    fn drop(&mut self) {
        self.shutdown.cancel();
        for server in &self.servers {
            server.kill_group();
        }
    }
}

/// A spec for a server whose settings could not be resolved (shown failed, never started).
fn placeholder(entry: &McpServerSettings) -> ServerSpec {
    ServerSpec {
        name: entry.name.clone(),
        transport: match &entry.url {
            Some(url) => Transport::Http {
                url: url.clone(),
                headers: Default::default(),
            },
            None => Transport::Stdio {
                command: entry.command.clone().unwrap_or_default(),
                args: Vec::new(),
                env: Default::default(),
                cwd: None,
            },
        },
        startup_timeout: Duration::from_secs(entry.startup_timeout_secs.max(1)),
        call_timeout: Duration::from_secs(entry.call_timeout_secs.max(1)),
        allow_tools: Vec::new(),
        deny_tools: Vec::new(),
        trust_read_only: false,
        approvals: Default::default(),
    }
}
