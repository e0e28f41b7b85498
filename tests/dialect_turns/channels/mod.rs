//! Channels end to end with real pieces on 127.0.0.1: the engine's channel layer and tools
//! over a local Telegram Bot API server and a webhook receiver, inbound chats through the
//! gateway with the scripted model, a scheduled job delivering to a Telegram chat, and
//! `text_to_speech`'s `deliver` to channels.

mod desktop;
mod inbound;
mod jobs;
mod speech;
mod telegram_out;
mod webhook;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use hearth_channels::Adapters;
use hearth_core::{DataDir, SecretError, SecretStore};
use hearth_engine::{Channels, EngineBuilder, OsNotifier};
use hearth_protocol::{ChannelKind, ChannelSettings, ProviderEntry, ProviderKind, Settings};
use hearth_store::Store;
use hearth_tools::{Dialect, Registry, ToolContext, ToolError};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// The bot token the local Bot API server accepts.
pub const TOKEN: &str = "123456:TEST-token_abc";

/// Secrets kept in memory.
#[derive(Default)]
pub struct MemorySecrets(Mutex<HashMap<String, String>>);

impl SecretStore for MemorySecrets {
    fn get(&self, account: &str) -> Result<Option<String>, SecretError> {
        Ok(self.0.lock().unwrap().get(account).cloned())
    }

    fn set(&self, account: &str, secret: &str) -> Result<(), SecretError> {
        self.0
            .lock()
            .unwrap()
            .insert(account.to_string(), secret.to_string());
        Ok(())
    }

    fn delete(&self, account: &str) -> Result<(), SecretError> {
        self.0.lock().unwrap().remove(account);
        Ok(())
    }
}

/// A Telegram channel `telegram` on the server at `base_url`.
pub fn telegram(base_url: &str) -> ChannelSettings {
    ChannelSettings {
        base_url: Some(base_url.to_string()),
        timeout_secs: 5,
        ..ChannelSettings::new("telegram", ChannelKind::Telegram)
    }
}

/// A data dir, a store, settings (the scripted model over the Ollama wire when `model_base`
/// is given) and a builder whose channels are built from them.
pub struct Rig {
    _temp: tempfile::TempDir,
    pub dir: DataDir,
    pub store: Arc<Store>,
    pub settings: Arc<Mutex<Settings>>,
    pub secrets: Arc<MemorySecrets>,
    pub builder: Arc<EngineBuilder>,
}

impl Rig {
    pub fn new(
        channels: Vec<ChannelSettings>,
        allow: Vec<String>,
        model_base: Option<String>,
    ) -> Rig {
        let temp = tempfile::tempdir().unwrap();
        let dir = DataDir::at(temp.path().to_path_buf());
        dir.ensure().unwrap();
        let store = Arc::new(Store::open(&dir.database()).unwrap());
        let settings = Settings {
            channels,
            allow_local_hosts: allow,
            providers: model_base
                .into_iter()
                .map(|base_url| ProviderEntry {
                    id: "local".into(),
                    name: "Local".into(),
                    kind: ProviderKind::Ollama,
                    base_url,
                    default_model: Some("qwen3".into()),
                })
                .collect(),
            ..Settings::default()
        };
        let secrets = Arc::new(MemorySecrets::default());
        secrets.set("channel:telegram", TOKEN).unwrap();
        let mut rig = Rig {
            builder: Arc::new(EngineBuilder::new(
                store.clone(),
                dir.clone(),
                secrets.clone(),
                Arc::new(OsNotifier),
            )),
            _temp: temp,
            dir,
            store,
            settings: Arc::new(Mutex::new(settings)),
            secrets,
        };
        rig.rebuild();
        rig
    }

    /// A new builder (as after a restart) over the same data dir and store.
    pub fn rebuild(&mut self) {
        let channels = Channels::new(self.store.clone()).with_factory(Arc::new(Adapters));
        let problems = channels.reload(&self.settings(), self.secrets.as_ref());
        assert!(problems.is_empty(), "{problems:?}");
        self.builder = Arc::new(
            EngineBuilder::new(
                self.store.clone(),
                self.dir.clone(),
                self.secrets.clone(),
                Arc::new(OsNotifier),
            )
            .with_channels(channels),
        );
    }

    pub fn settings(&self) -> Settings {
        self.settings.lock().unwrap().clone()
    }

    /// Where the settings come from for the gateway and the job executor.
    pub fn settings_source(
        &self,
    ) -> impl Fn() -> Result<Settings, hearth_engine::EngineError> + Send + Sync + 'static {
        let settings = self.settings.clone();
        move || Ok(settings.lock().unwrap().clone())
    }

    pub fn registry(&self, dialect: Dialect) -> Registry {
        self.builder.registry(dialect, &self.settings())
    }

    pub fn workspace(&self) -> std::path::PathBuf {
        self.dir.workspace()
    }

    /// Calls `tool` of the `hearth` dialect from session `session`.
    pub async fn call(&self, session: &str, tool: &str, args: Value) -> Result<Value, ToolError> {
        self.call_in(Dialect::Hearth, session, tool, args).await
    }

    pub async fn call_in(
        &self,
        dialect: Dialect,
        session: &str,
        tool: &str,
        args: Value,
    ) -> Result<Value, ToolError> {
        let context = ToolContext {
            workspace: self.workspace(),
            data_dir: self.dir.root().to_path_buf(),
            session_id: session.to_string(),
            cancel: CancellationToken::new(),
            images: Default::default(),
            conversation: None,
            sandbox: Default::default(),
        };
        self.registry(dialect)
            .dispatch(tool, &args.to_string(), &context)
            .await
    }
}
