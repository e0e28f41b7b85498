//! Opening the data dir, logging, the store and the model client from flags and `config.toml`.

use std::sync::Arc;

use anyhow::{anyhow, Context};
use hearth_engine::{
    load_settings, network_config, resolve_api_key, tool_registry, DataDir, KeyringStore,
    OsNotifier,
};
use hearth_llm::{build_client, ProviderConfig, ProviderKind, RetryPolicy, SharedModelClient};
use hearth_protocol::{ProviderEntry, Settings};
use hearth_store::Store;
use hearth_tools::{Background, Dialect, Registry};

use crate::GlobalArgs;

/// The data dir, settings and store, opened and recovered.
pub struct Home {
    pub dir: DataDir,
    pub settings: Settings,
    pub store: Arc<Store>,
}

impl Home {
    /// The tool registry of `dialect`, with the network tools configured from the settings and
    /// the web search keys in the OS keychain; background processes and terminals it starts
    /// end with it (when the command finishes).
    pub fn tool_registry(&self, dialect: Dialect) -> Registry {
        let network = network_config(&self.settings, &KeyringStore::new());
        tool_registry(
            dialect,
            &self.store,
            Arc::new(OsNotifier),
            network,
            &Background::new(),
        )
    }
}

/// Opens the data dir: creates it, starts file logging, opens the database and marks replies
/// left `streaming` by a dead process as `interrupted`.
pub fn open_home() -> anyhow::Result<Home> {
    open_home_logging(LogTo::File)
}

/// Where log lines go: `logs/hearth-cli.log`, or stderr (the daemon).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogTo {
    File,
    Stderr,
}

/// [`open_home`] with logs sent to `log_to`.
pub fn open_home_logging(log_to: LogTo) -> anyhow::Result<Home> {
    let dir = DataDir::resolve()?;
    dir.ensure()
        .with_context(|| format!("cannot create the data dir {}", dir.root().display()))?;
    init_logging(&dir, log_to);
    let settings = load_settings(&dir.config())?;
    let store = Store::open(&dir.database())
        .with_context(|| format!("cannot open {}", dir.database().display()))?;
    let recovered = store.mark_streaming_interrupted()?;
    if recovered > 0 {
        tracing::info!(recovered, "marked unfinished replies as interrupted");
    }
    Ok(Home {
        dir,
        settings,
        store: Arc::new(store),
    })
}

fn init_logging(dir: &DataDir, log_to: LogTo) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("HEARTH_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let logger = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false);
    if log_to == LogTo::Stderr {
        let _ = logger.with_writer(std::io::stderr).try_init();
        return;
    }
    let path = dir.logs().join("hearth-cli.log");
    let Ok(file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    else {
        return;
    };
    let _ = logger.with_writer(std::sync::Mutex::new(file)).try_init();
}

/// The settings with the provider flags applied: `--provider` (with `--base-url`) becomes the
/// default provider and `--model` its default model. For runs that read settings themselves
/// (scheduled jobs).
pub fn settings_with_flags(
    global: &GlobalArgs,
    mut settings: Settings,
) -> anyhow::Result<Settings> {
    if global.provider.is_none() && global.base_url.is_none() && global.model.is_none() {
        return Ok(settings);
    }
    let mut entry = provider_entry(global, &settings)?;
    if let Some(base_url) = &global.base_url {
        url_is_http(base_url)?;
    }
    if let Some(model) = &global.model {
        entry.default_model = Some(model.clone());
    }
    settings.providers.retain(|p| p.id != entry.id);
    settings.default_provider = Some(entry.id.clone());
    settings.providers.insert(0, entry);
    Ok(settings)
}

/// The provider and model chosen by flags, else by `config.toml`.
pub struct ModelChoice {
    pub client: SharedModelClient,
    pub model: String,
}

pub fn choose_model(global: &GlobalArgs, settings: &Settings) -> anyhow::Result<ModelChoice> {
    let entry = provider_entry(global, settings)?;
    let kind = ProviderKind::parse(&entry.kind).ok_or_else(|| {
        anyhow!(
            "provider '{}' has unknown kind '{}': use openai, anthropic, ollama or gemini",
            entry.id,
            entry.kind
        )
    })?;
    let model = global
        .model
        .clone()
        .or_else(|| entry.default_model.clone())
        .or_else(|| settings.default_model.clone())
        .ok_or_else(|| {
            anyhow!("no model chosen: pass --model NAME or set default_model in config.toml")
        })?;
    let api_key = resolve_api_key(
        kind,
        &entry.id,
        global.api_key_env.as_deref(),
        &KeyringStore::new(),
    )?;
    let base_url = if entry.base_url.is_empty() {
        kind.default_base_url().to_string()
    } else {
        entry.base_url.clone()
    };
    url_is_http(&base_url)?;
    let client = build_client(ProviderConfig {
        kind,
        provider_id: entry.id.clone(),
        base_url,
        api_key,
        retry: RetryPolicy::default(),
        connect_timeout: std::time::Duration::from_secs(30),
    })?;
    Ok(ModelChoice { client, model })
}

fn url_is_http(url: &str) -> anyhow::Result<()> {
    if url.starts_with("http://") || url.starts_with("https://") {
        Ok(())
    } else {
        Err(anyhow!(
            "base URL '{url}' must start with http:// or https://"
        ))
    }
}

fn provider_entry(global: &GlobalArgs, settings: &Settings) -> anyhow::Result<ProviderEntry> {
    if let Some(name) = &global.provider {
        let kind = ProviderKind::parse(name).ok_or_else(|| {
            anyhow!("unknown provider '{name}': use openai, anthropic, ollama or gemini")
        })?;
        let configured = settings.providers.iter().find(|p| p.id == name.as_str());
        return Ok(ProviderEntry {
            id: name.clone(),
            name: name.clone(),
            kind: kind.as_str().to_string(),
            base_url: global
                .base_url
                .clone()
                .or_else(|| configured.map(|p| p.base_url.clone()))
                .unwrap_or_default(),
            default_model: configured.and_then(|p| p.default_model.clone()),
        });
    }
    let mut entry = hearth_engine::default_provider(settings).cloned().ok_or_else(|| {
        anyhow!("no provider configured: pass --provider openai|anthropic|ollama|gemini (with --base-url and --model), or add one in the app's Settings")
    })?;
    if let Some(url) = &global.base_url {
        entry.base_url = url.clone();
    }
    Ok(entry)
}
