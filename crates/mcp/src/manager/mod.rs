//! The MCP servers of one Hearth process: started in the background, their tools offered to
//! every registry built while they are ready, changed in place when the settings change (see
//! [`McpManager::apply`]), and every one shut down (gracefully, then its process group killed)
//! when Hearth exits or the manager is dropped.

mod changes;
mod roster;
mod sign_in;
mod view;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hearth_protocol::McpServerSettings;
use hearth_tools::{DynTool, ErrorKind, ToolContext, ToolError};
use serde_json::Value;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::config::Offer;
use crate::names::{qualified_name, server_prefix};
use crate::oauth::SharedOAuth;
use crate::server::Server;
use crate::status::ServerStatus;
use crate::tool::{read_only_hint, McpTool, ToolInfo};

pub use changes::Changes;
use roster::Slot;

pub struct McpManager {
    /// This manager, for the `tool_search` tool it hands out and for watches.
    me: std::sync::Weak<McpManager>,
    slots: Mutex<Vec<Slot>>,
    /// Bumped whenever servers are added, removed or replaced.
    roster: watch::Sender<u64>,
    /// Supervisors of servers taken out of the settings, still shutting down.
    retired: Mutex<Vec<JoinHandle<()>>>,
    /// The runtime [`McpManager::start_background`] was called in: servers added later start
    /// on it at once, even when the settings change outside it (the app's main thread).
    runtime: Mutex<Option<tokio::runtime::Handle>>,
    shutdown: CancellationToken,
    log_dir: PathBuf,
    /// Where OAuth tokens are kept and how authorization pages are shown.
    oauth: SharedOAuth,
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
        let manager = Arc::new_cyclic(|me| McpManager {
            me: me.clone(),
            slots: Mutex::new(Vec::new()),
            roster: watch::channel(0).0,
            retired: Mutex::new(Vec::new()),
            runtime: Mutex::new(None),
            shutdown: CancellationToken::new(),
            log_dir: log_dir.to_path_buf(),
            oauth: SharedOAuth::default(),
        });
        manager.apply(settings, secret);
        manager
    }

    /// Starts the supervisor of every enabled server (call inside a Tokio runtime); servers
    /// added by [`McpManager::apply`] afterwards start at once.
    pub fn start_background(&self) {
        let Ok(handle) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if self.shutdown.is_cancelled() {
            return;
        }
        if let Ok(mut runtime) = self.runtime.lock() {
            *runtime = Some(handle.clone());
        }
        if let Ok(mut slots) = self.slots.lock() {
            for slot in slots.iter_mut() {
                slot.start(&handle);
            }
        }
    }

    /// A weak handle on this manager, for the tools it hands out.
    pub(crate) fn me(&self) -> std::sync::Weak<McpManager> {
        self.me.clone()
    }

    /// The runtime servers start on, once started.
    fn runtime(&self) -> Option<tokio::runtime::Handle> {
        self.runtime.lock().ok().and_then(|r| r.clone())
    }

    /// The current servers with what each offers.
    pub(crate) fn servers(&self) -> Vec<(Arc<Server>, Offer)> {
        self.slots
            .lock()
            .map(|slots| {
                slots
                    .iter()
                    .map(|s| (s.server.clone(), s.offer.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// A watch on the servers (added, removed or replaced) and every server's state and tools.
    pub fn watch(&self) -> Changes {
        Changes::new(self.me.clone(), self.roster.subscribe())
    }

    /// Waits until no server is still starting, each at most its start-up timeout.
    pub async fn settled(&self) {
        let servers = self.servers();
        let waits = servers.iter().map(|(server, _)| {
            server.settled(server.spec.startup_timeout + Duration::from_secs(1))
        });
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
        self.status_rows()
            .into_iter()
            .map(|(status, ..)| status)
            .collect()
    }

    /// Every server's status with the server and what it offers.
    fn status_rows(&self) -> Vec<(ServerStatus, Arc<Server>, Offer)> {
        let tools = self.tool_infos();
        self.servers()
            .into_iter()
            .map(|(server, offer)| {
                let offered = tools
                    .iter()
                    .filter(|t| t.server == server.spec.name)
                    .count();
                (server.status(offered), server, offer)
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
        for (server, offer) in self.servers() {
            let name = &server.spec.name;
            for tool in server.tools() {
                if !offer.offers(&tool.name) {
                    continue;
                }
                let read_only = read_only_hint(&tool);
                let info = ToolInfo {
                    name: qualified_name(name, &tool.name, &mut taken),
                    server: name.clone(),
                    tool: tool.name.to_string(),
                    description: tool.description.as_deref().unwrap_or("").to_string(),
                    input_schema: Value::Object((*tool.input_schema).clone()),
                    output_schema: tool
                        .output_schema
                        .as_ref()
                        .map(|s| Value::Object((**s).clone())),
                    read_only,
                    unasked: offer.runs_unasked(&tool.name, read_only),
                };
                out.push((info, server.clone()));
            }
        }
        out
    }

    /// The tool name prefix (`mcp__<server>__`) of every server that is not ready, with why
    /// its tools cannot be called.
    pub(crate) fn unavailable(&self) -> Vec<(String, String)> {
        self.servers()
            .into_iter()
            .filter_map(|(server, _)| {
                let why = server.not_ready()?;
                Some((server_prefix(&server.spec.name), why.message))
            })
            .collect()
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
            if let Some((_, why)) = self
                .unavailable()
                .into_iter()
                .find(|(p, _)| tool.starts_with(p))
            {
                return Err(ToolError::new(ErrorKind::Unavailable, why));
            }
            return Err(ToolError::new(
                ErrorKind::NotFound,
                format!("no MCP tool named `{tool}` is ready"),
            ));
        };
        let (_, bound) = found.prepare(arguments).await?;
        bound(ctx).await
    }

    /// Shuts every server down: asked to exit, then its process group killed.
    pub async fn shutdown(&self) {
        self.shutdown.cancel();
        let mut tasks: Vec<JoinHandle<()>> = self
            .slots
            .lock()
            .map(|mut slots| slots.iter_mut().filter_map(|s| s.task.take()).collect())
            .unwrap_or_default();
        if let Ok(mut retired) = self.retired.lock() {
            tasks.append(&mut retired);
        }
        for task in tasks {
            let _ = task.await;
        }
    }
}

impl Drop for McpManager {
    /// Without a [`McpManager::shutdown`], no server outlives the manager either.
    fn drop(&mut self) {
        self.shutdown.cancel();
        for (server, _) in self.servers() {
            server.kill_group();
        }
    }
}
