//! A browser tool in a registry over a temporary data dir and workspace, called as the model
//! would (JSON arguments through the registry's validation).

use hearth_browser::{register_browser, BrowserConfig, Browsers};
use hearth_tools::{Dialect, Registry, ToolContext, ToolError};
use serde_json::Value;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

pub struct Rig {
    pub dir: tempfile::TempDir,
    pub browsers: Browsers,
    pub registry: Registry,
    pub ctx: ToolContext,
    pub port: u16,
    /// What the registry's tool was configured with.
    pub config: BrowserConfig,
}

impl Rig {
    pub async fn new() -> Rig {
        Rig::with(Dialect::Hearth, "").await
    }

    pub async fn with(dialect: Dialect, executable: &str) -> Rig {
        Rig::configured(dialect, |config| config.executable = executable.to_string()).await
    }

    /// A rig whose tool configuration `change` adjusts.
    pub async fn configured(dialect: Dialect, change: impl FnOnce(&mut BrowserConfig)) -> Rig {
        let (port, other) = super::pages::serve().await;
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let workspace = dir.path().join("workspace");
        std::fs::create_dir_all(&workspace).unwrap();
        let browsers = Browsers::new(&data);
        let mut registry = Registry::new(dialect);
        let mut config = BrowserConfig {
            executable: String::new(),
            visible: false,
            idle: Duration::from_secs(600),
            allow_local: vec![format!("127.0.0.1:{port}"), format!("localhost:{other}")],
            cdp_url: String::new(),
            attach_allowed: true,
        };
        change(&mut config);
        register_browser(&mut registry, &browsers, config.clone()).unwrap();
        let ctx = ToolContext {
            workspace,
            data_dir: data,
            session_id: "test-session".into(),
            cancel: CancellationToken::new(),
            images: Default::default(),
            conversation: None,
            sandbox: Default::default(),
        };
        Rig {
            dir,
            browsers,
            registry,
            ctx,
            port,
            config,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub async fn try_call(&self, args: Value) -> Result<Value, ToolError> {
        self.registry
            .dispatch("browser", &args.to_string(), &self.ctx)
            .await
    }

    pub async fn call(&self, args: Value) -> Value {
        match self.try_call(args.clone()).await {
            Ok(value) => value,
            Err(error) => panic!("{args} failed: {error:?}"),
        }
    }

    /// Opens `path` and returns the outline.
    pub async fn open(&self, path: &str) -> String {
        let result = self
            .call(serde_json::json!({"action": "open", "url": self.url(path)}))
            .await;
        snapshot(&result)
    }

    pub async fn snapshot(&self) -> String {
        snapshot(&self.call(serde_json::json!({"action": "snapshot"})).await)
    }

    pub async fn text(&self) -> String {
        let result = self.call(serde_json::json!({"action": "get_text"})).await;
        result["text"].as_str().unwrap().to_string()
    }
}

pub fn snapshot(result: &Value) -> String {
    result["snapshot"].as_str().unwrap_or_default().to_string()
}

/// The ref on the first line containing `needle`.
pub fn ref_of(outline: &str, needle: &str) -> String {
    let line = outline
        .lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle} in:\n{outline}"));
    let start = line
        .find("[ref=")
        .unwrap_or_else(|| panic!("no ref on {line}"))
        + 5;
    let end = line[start..].find(']').unwrap() + start;
    line[start..end].to_string()
}
