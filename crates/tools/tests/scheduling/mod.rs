//! Integration tests of the job and notification tools through the registry, over real SQLite
//! files: every dialect's names and schemas, results, errors, malformed arguments and what
//! each call does (read-only or asked).

#[cfg(unix)]
mod call_facts;
mod jobs;
mod notify;
mod picobot;

use std::path::Path;
use std::sync::Arc;

use crate::support::{failed, succeeded};
use hearth_store::Store;
use hearth_tools::{Dialect, Registry, ToolContext, ToolError};
use serde_json::Value;

pub struct Env {
    pub dir: tempfile::TempDir,
    pub store: Arc<Store>,
}

impl Env {
    pub fn create() -> Env {
        let dir = match tempfile::tempdir() {
            Ok(dir) => dir,
            Err(e) => panic!("tempdir: {e}"),
        };
        let store = open(dir.path());
        Env { dir, store }
    }

    pub fn context(&self) -> ToolContext {
        ToolContext::new(
            self.dir.path().join("workspace"),
            self.dir.path().to_path_buf(),
            "desktop:test",
        )
    }

    /// Marks a scheduler as alive now (as the app or the daemon does every 30 s).
    pub fn scheduler_alive(&self) {
        let now = chrono::Utc::now().timestamp_millis();
        if let Err(e) = self
            .store
            .scheduler_heartbeat("test-runner", 99, now, 90_000)
        {
            panic!("heartbeat: {e}");
        }
    }
}

pub fn open(dir: &Path) -> Arc<Store> {
    match Store::open(&dir.join("hearth.db")) {
        Ok(store) => Arc::new(store),
        Err(e) => panic!("open: {e}"),
    }
}

pub async fn call(
    registry: &Registry,
    env: &Env,
    tool: &str,
    args: &str,
) -> Result<Value, ToolError> {
    registry.dispatch(tool, args, &env.context()).await
}

pub async fn ok(registry: &Registry, env: &Env, tool: &str, args: &str) -> Value {
    succeeded(call(registry, env, tool, args).await, tool, args)
}

pub async fn err(registry: &Registry, env: &Env, tool: &str, args: &str) -> ToolError {
    failed(call(registry, env, tool, args).await, tool, args)
}

pub fn jobs_registry(dialect: Dialect, env: &Env) -> Registry {
    let mut registry = Registry::new(dialect);
    if let Err(e) = hearth_tools::register_jobs(&mut registry, env.store.clone(), None) {
        panic!("register: {e}");
    }
    registry
}
