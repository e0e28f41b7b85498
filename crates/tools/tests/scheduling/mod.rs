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

use hearth_store::Store;
use hearth_tools::{Dialect, Registry, ToolContext, ToolError};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

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
        ToolContext {
            workspace: self.dir.path().join("workspace"),
            data_dir: self.dir.path().to_path_buf(),
            session_id: "desktop:test".to_string(),
            cancel: CancellationToken::new(),
            images: Default::default(),
            conversation: None,
            sandbox: Default::default(),
        }
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
    match call(registry, env, tool, args).await {
        Ok(value) => value,
        Err(e) => panic!("{tool} {args} failed: {e:?}"),
    }
}

pub async fn err(registry: &Registry, env: &Env, tool: &str, args: &str) -> ToolError {
    match call(registry, env, tool, args).await {
        Ok(value) => panic!("{tool} {args} succeeded: {value}"),
        Err(e) => e,
    }
}

pub fn jobs_registry(dialect: Dialect, env: &Env) -> Registry {
    let mut registry = Registry::new(dialect);
    if let Err(e) = hearth_tools::register_jobs(&mut registry, env.store.clone(), None) {
        panic!("register: {e}");
    }
    registry
}
