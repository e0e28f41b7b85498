//! Settings commands: `config.toml` (a change to the channels rebuilds them and restarts their
//! inbound gateway), API keys in the OS keychain (a provider's, or the web search
//! keys `brave` / `tavily`; only masked hints come back),
//! connection tests, local model servers found at first run, the audit log, and the start-up mark.

use hearth_ipc_macros::command;
use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use hearth_engine::{
    key_account, mask_secret, provider_account, save_settings as write_settings, user_rules,
};
use hearth_protocol::{AppError, DetectedServer, KeyStatus, ListedModel, ProviderEntry, Settings};
use hearth_store::AuditRecord;
use tauri::{Manager, State};

use crate::state::{AppState, CommandResult};

#[command]
pub fn get_settings(state: State<'_, AppState>) -> Settings {
    state.settings()
}

#[command]
pub fn save_settings(
    app: tauri::AppHandle,
    state: State<'_, AppState>,
    mut settings: Settings,
) -> CommandResult<()> {
    validate(&settings)?;
    // The tray owns "Pause all jobs"; a settings page opened earlier must not undo it.
    settings.jobs_paused = state.settings().jobs_paused;
    write_settings(&state.dir.config(), &settings).map_err(AppError::from)?;
    crate::autostart::apply(&app, settings.start_at_login);
    let before = state.settings();
    let relabel = (before.language != settings.language).then_some(settings.language);
    let channels_changed = before.channels != settings.channels
        || before.allow_local_hosts != settings.allow_local_hosts;
    let removed = removed_channels(&before, &settings);
    let knowledge_changed = before.knowledge != settings.knowledge;
    state.apply_settings(settings);
    if knowledge_changed {
        super::knowledge::apply(&state);
    }
    if let Some(language) = relabel {
        crate::tray::relabel(&app, language);
    }
    if channels_changed {
        let app = app.clone();
        state.tasks.spawn(async move {
            forget_tokens(&app, removed).await;
            crate::gateway::restart(&app).await;
        });
    }
    Ok(())
}

/// The keychain accounts of the channels `after` no longer has.
fn removed_channels(before: &Settings, after: &Settings) -> Vec<String> {
    before
        .channels
        .iter()
        .filter(|old| !after.channels.iter().any(|c| c.name == old.name))
        .map(hearth_protocol::ChannelSettings::token_account)
        .collect()
}

/// Deletes the tokens of removed channels (a failure is logged: the channel is gone anyway).
async fn forget_tokens(app: &tauri::AppHandle, accounts: Vec<String>) {
    let state = app.state::<AppState>();
    for account in accounts {
        let deleting = account.clone();
        if let Err(error) = keychain(&state, move |s| s.delete(&deleting)).await {
            tracing::warn!(%error, %account, "a removed channel's token stayed in the keychain");
        }
    }
}

/// Channel names usable in targets and unique, webhook URLs and Bot API servers http(s),
/// allowed chats named once each.
fn validate_channels(settings: &Settings) -> CommandResult<()> {
    let mut names = std::collections::HashSet::new();
    for channel in &settings.channels {
        let bad = |reason: String| AppError::BadChannel {
            name: channel.name.clone(),
            reason,
        };
        hearth_channels::check_name(&channel.name).map_err(bad)?;
        if !names.insert(channel.name.as_str()) {
            return Err(bad("two channels have this name".into()));
        }
        let field = format!("channels.{}", channel.name);
        match channel.kind {
            hearth_protocol::ChannelKind::Webhook => {
                let url = channel.url.as_deref().unwrap_or_default().trim();
                if url.is_empty() {
                    return Err(bad("a webhook needs its URL".into()));
                }
                http_url(&format!("{field}.url"), url)?;
            }
            hearth_protocol::ChannelKind::Telegram => {
                let base = channel.base_url.as_deref().unwrap_or_default().trim();
                http_url(&format!("{field}.base_url"), base)?;
            }
        }
        let mut chats = std::collections::HashSet::new();
        for chat in &channel.allowed_chats {
            if chat.id.trim().is_empty() || !chats.insert(chat.id.trim()) {
                return Err(bad(format!(
                    "allowed chat ids must be unique and not empty ('{}')",
                    chat.id
                )));
            }
        }
    }
    Ok(())
}

/// What the loader cannot check by type: unique provider ids, http(s) URLs, the local-host
/// allow list and the rules (enumerated settings are typed, so they cannot be wrong here).
fn validate(settings: &Settings) -> CommandResult<()> {
    let mut ids = std::collections::HashSet::new();
    for p in &settings.providers {
        if p.id.trim().is_empty() || !ids.insert(p.id.as_str()) {
            return Err(AppError::ProviderIdTaken { id: p.id.clone() });
        }
        if key_account(&p.id) != provider_account(&p.id) {
            return Err(AppError::ProviderIdReserved { id: p.id.clone() });
        }
        http_url(&format!("providers.{}.base_url", p.id), &p.base_url)?;
    }
    http_url("search.searxng_url", settings.search.searxng_url.trim())?;
    http_url("media.image.base_url", settings.media.image.base_url.trim())?;
    http_url(
        "media.speech.base_url",
        settings.media.speech.base_url.trim(),
    )?;
    let network = hearth_tools::NetworkConfig {
        allow_local: settings.allow_local_hosts.clone(),
        ..Default::default()
    };
    if let Some((entry, reason)) = network.invalid_allow_entries().into_iter().next() {
        return Err(AppError::BadLocalHost { entry, reason });
    }
    user_rules(settings)?;
    hearth_mcp::check_servers(&settings.mcp_servers).map_err(crate::commands::mcp::mcp_error)?;
    validate_channels(settings)
}

/// An empty URL (the default) or one starting with http:// or https://.
fn http_url(field: &str, url: &str) -> CommandResult<()> {
    if url.is_empty() || url.starts_with("http://") || url.starts_with("https://") {
        Ok(())
    } else {
        Err(AppError::NotHttpUrl {
            field: field.to_string(),
            url: url.to_string(),
        })
    }
}

/// Rebuilds the tools when `id` names a web search key (they read it from the keychain).
async fn follow_search_key(app: &tauri::AppHandle, id: &str) -> CommandResult<()> {
    if key_account(id) == provider_account(id) {
        return Ok(());
    }
    let app = app.clone();
    tokio::task::spawn_blocking(move || app.state::<AppState>().rebuild_tools())
        .await
        .map_err(AppError::internal)
}

/// Runs `op` on the keychain off the async runtime's threads.
pub(crate) async fn keychain<T: Send + 'static>(
    state: &AppState,
    op: impl FnOnce(&dyn hearth_core::SecretStore) -> Result<T, hearth_core::SecretError>
        + Send
        + 'static,
) -> CommandResult<T> {
    let secrets = state.secrets.clone();
    tokio::task::spawn_blocking(move || op(secrets.as_ref()))
        .await
        .map_err(AppError::internal)?
        .map_err(|e| AppError::from(hearth_engine::EngineError::from(e)))
}

/// Whether a key is stored for `id` under `account`, read off the async runtime's threads; a
/// keychain that cannot be asked is "no key stored" (see [`hearth_engine::key_status`]).
pub(crate) async fn key_status(
    state: &AppState,
    id: String,
    account: String,
) -> CommandResult<KeyStatus> {
    let secrets = state.secrets.clone();
    tokio::task::spawn_blocking(move || hearth_engine::key_status(secrets.as_ref(), &id, &account))
        .await
        .map_err(AppError::internal)
}

#[command]
pub async fn get_key_status(
    state: State<'_, AppState>,
    provider_id: String,
) -> CommandResult<KeyStatus> {
    let account = key_account(&provider_id);
    key_status(&state, provider_id, account).await
}

#[command]
pub async fn set_api_key(
    app: tauri::AppHandle,
    state: State<'_, AppState>,
    provider_id: String,
    key: String,
) -> CommandResult<KeyStatus> {
    let key = key.trim().to_string();
    if key.is_empty() {
        return Err(AppError::EmptyKey);
    }
    let masked = mask_secret(&key);
    let account = key_account(&provider_id);
    keychain(&state, move |s| s.set(&account, &key)).await?;
    tracing::info!(provider = %provider_id, "API key stored in the OS keychain");
    follow_search_key(&app, &provider_id).await?;
    Ok(KeyStatus {
        provider_id,
        stored: true,
        masked: Some(masked),
        keychain_unavailable: false,
    })
}

#[command]
pub async fn delete_api_key(
    app: tauri::AppHandle,
    state: State<'_, AppState>,
    provider_id: String,
) -> CommandResult<()> {
    let account = key_account(&provider_id);
    keychain(&state, move |s| s.delete(&account)).await?;
    follow_search_key(&app, &provider_id).await
}

/// Lists the models the provider offers with their context windows, proving the URL and key
/// work: with `api_key` when the form holds one not yet saved (it reaches the keychain only on
/// save), else the stored key.
#[command]
pub async fn test_connection(
    state: State<'_, AppState>,
    provider: ProviderEntry,
    api_key: Option<String>,
) -> CommandResult<Vec<ListedModel>> {
    let typed = api_key
        .map(|k| k.trim().to_string())
        .filter(|k| !k.is_empty());
    let client = match typed {
        Some(key) => hearth_engine::client_with_key(&provider, Some(key), state.builder.local())?,
        None => state.client_for(&provider).await?,
    };
    let models = client.list_models().await.map_err(|e| AppError::from(&e))?;
    Ok(models
        .into_iter()
        .map(|m| ListedModel {
            id: m.id,
            context_window: m.context_window,
        })
        .collect())
}

/// Model servers running on this machine (Ollama, LM Studio, llama.cpp, vLLM on their usual
/// ports), offered as one-click providers when none is configured.
#[command]
pub async fn detect_local_servers() -> Vec<DetectedServer> {
    hearth_engine::detect_local_servers(
        &hearth_engine::well_known_servers(),
        hearth_engine::DETECT_TIMEOUT,
    )
    .await
}

#[command]
pub async fn list_audit(state: State<'_, AppState>, limit: u32) -> CommandResult<Vec<AuditRecord>> {
    let limit = limit.clamp(1, 1_000) as usize;
    Ok(state.db.read(move |store| store.list_audit(limit)).await?)
}

/// Called by the UI once its first screen is rendered: records the start-up time, with the UI's
/// own marks (`name` → wall-clock epoch milliseconds: page navigation start, script evaluated,
/// first data loaded) logged as milliseconds since the process started.
#[command]
pub fn app_ready(state: State<'_, AppState>, marks: Option<BTreeMap<String, f64>>) {
    let elapsed = state.started.elapsed();
    let since_start = |epoch_ms: f64| {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        let process_start = now.saturating_sub(elapsed).as_secs_f64() * 1000.0;
        (epoch_ms - process_start).round() as i64
    };
    let marks: Vec<String> = marks
        .unwrap_or_default()
        .into_iter()
        .map(|(name, at)| format!("{name}={}", since_start(at)))
        .collect();
    tracing::info!(
        ms = elapsed.as_millis() as u64,
        ui = marks.join(" "),
        "ready"
    );
    if let Some(path) = std::env::var_os("HEARTH_READY_FILE") {
        let _ = std::fs::write(path, elapsed.as_millis().to_string());
    }
}
