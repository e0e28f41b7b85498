//! Opening the data dir, logging, the store and the model client from flags and `config.toml`.

use std::sync::Arc;

use anyhow::{anyhow, Context};
use hearth_channels::Adapters;
use hearth_core::{DataDir, KeyringStore, SecretStore};
use hearth_engine::{load_settings, Channels, EngineBuilder, OsNotifier};
use hearth_mcp::McpManager;
use hearth_protocol::{McpServerSettings, ProviderEntry, ProviderKind, Settings};
use hearth_store::Store;

use crate::GlobalArgs;

/// The data dir, settings and store, opened and recovered, and the engine builder over them
/// (the OS keychain and notifications; background processes and terminals the tools start end
/// when the command finishes).
pub struct Home {
    pub dir: DataDir,
    pub settings: Settings,
    pub store: Arc<Store>,
    pub builder: Arc<EngineBuilder>,
}

/// Opens the data dir: creates it, starts file logging, opens the database and marks replies
/// left `streaming` and sub-agents left running by a dead process as `interrupted`.
pub fn open_home() -> anyhow::Result<Home> {
    open_home_logging(LogTo::File)
}

/// Fails with the loader's one-line message when `config.toml` has an unknown key or value.
pub fn check_settings() -> anyhow::Result<()> {
    load_settings(&DataDir::resolve()?.config())?;
    Ok(())
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
    hearth_engine::recover_agent_runs(&store, settings.language)?;
    let store = Arc::new(store);
    let builder = Arc::new(engine_builder(&store, &dir, &settings));
    Ok(Home {
        dir,
        settings,
        store,
        builder,
    })
}

/// The builder over `store` and `dir`, with the channels of `settings` (their tokens from
/// `token_env` or the keychain; one that cannot be built is left out and logged).
fn engine_builder(store: &Arc<Store>, dir: &DataDir, settings: &Settings) -> EngineBuilder {
    let secrets = Arc::new(KeyringStore::new());
    let channels = Channels::new(store.clone()).with_factory(Arc::new(Adapters));
    if !settings.channels.is_empty() {
        channels.reload(settings, secrets.as_ref());
    }
    EngineBuilder::new(store.clone(), dir.clone(), secrets, Arc::new(OsNotifier))
        .with_channels(channels)
}

/// Starts `servers` (secrets from the keychain, logs in `logs/mcp/`) and waits until each is
/// ready or failed (at most its start-up timeout).
pub async fn start_mcp(home: &Home, servers: &[McpServerSettings]) -> Arc<McpManager> {
    let keychain = KeyringStore::new();
    let secret = |account: &str| keychain.get(account).ok().flatten();
    let manager = McpManager::start(servers, &secret, &home.dir.logs().join("mcp"));
    manager.settled().await;
    manager
}

/// [`open_home`] whose registries also offer the tools of the enabled MCP servers (started
/// here and waited for); shut the manager down when the command ends.
pub async fn open_home_with_mcp() -> anyhow::Result<(Home, Arc<McpManager>)> {
    let mut home = open_home()?;
    let servers = home.settings.mcp_servers.clone();
    let manager = start_mcp(&home, &servers).await;
    home.builder = Arc::new(
        engine_builder(&home.store, &home.dir, &home.settings).with_tool_source(manager.clone()),
    );
    Ok((home, manager))
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
/// default provider and `--model` its default model.
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
        let kind: ProviderKind = name.parse().map_err(|e| anyhow!("--provider: {e}"))?;
        let configured = settings.providers.iter().find(|p| p.id == name.as_str());
        return Ok(ProviderEntry {
            id: name.clone(),
            name: name.clone(),
            kind,
            base_url: global
                .base_url
                .clone()
                .or_else(|| configured.map(|p| p.base_url.clone()))
                .unwrap_or_default(),
            default_model: configured.and_then(|p| p.default_model.clone()),
        });
    }
    let mut entry = hearth_engine::default_provider(settings).cloned().ok_or_else(|| {
        anyhow!("no provider configured: pass --provider openai|anthropic|ollama|gemini (with --base-url and --model) or --provider local --model NAME (see `hearth-cli models list`), or add one in the app's Settings")
    })?;
    if let Some(url) = &global.base_url {
        entry.base_url = url.clone();
    }
    Ok(entry)
}
