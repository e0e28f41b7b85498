//! Settings commands: `config.toml`, API keys in the OS keychain (a provider's, or the web search
//! keys `brave` / `tavily`; only masked hints come back),
//! connection tests, the audit log, and the start-up mark.

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use hearth_engine::{
    key_account, mask_secret, parse_search_backend, provider_account,
    save_settings as write_settings,
};
use hearth_protocol::{KeyStatus, ProviderEntry, Settings};
use hearth_store::AuditRecord;
use tauri::{Manager, State};

use crate::state::{to_message, AppState, CommandResult};

#[tauri::command]
pub fn get_settings(state: State<'_, AppState>) -> Settings {
    state.settings()
}

#[tauri::command]
pub fn save_settings(
    app: tauri::AppHandle,
    state: State<'_, AppState>,
    mut settings: Settings,
) -> CommandResult<()> {
    validate(&settings)?;
    // The tray owns "Pause all jobs"; a settings page opened earlier must not undo it.
    settings.jobs_paused = state.settings().jobs_paused;
    write_settings(&state.dir.config(), &settings).map_err(to_message)?;
    crate::autostart::apply(&app, settings.start_at_login);
    state.apply_settings(settings);
    Ok(())
}

fn validate(settings: &Settings) -> CommandResult<()> {
    let mut ids = std::collections::HashSet::new();
    for p in &settings.providers {
        if p.id.trim().is_empty() || !ids.insert(p.id.as_str()) {
            return Err(format!(
                "provider ids must be unique and not empty ('{}')",
                p.id
            ));
        }
        if key_account(&p.id) != provider_account(&p.id) {
            return Err(format!(
                "provider id '{}' is the name of a web search key; choose another",
                p.id
            ));
        }
        if hearth_llm::ProviderKind::parse(&p.kind).is_none() {
            return Err(format!("provider '{}': unknown kind '{}'", p.id, p.kind));
        }
        let http = p.base_url.starts_with("http://") || p.base_url.starts_with("https://");
        if !p.base_url.is_empty() && !http {
            return Err(format!(
                "provider '{}': the base URL must start with http:// or https://",
                p.id
            ));
        }
    }
    if hearth_policy::ToolProfile::parse(&settings.tool_profile).is_none() {
        return Err(format!("unknown tool profile '{}'", settings.tool_profile));
    }
    parse_search_backend(&settings.search.backend)?;
    let searxng = settings.search.searxng_url.trim();
    let http = searxng.starts_with("http://") || searxng.starts_with("https://");
    if !searxng.is_empty() && !http {
        return Err("the SearXNG URL must start with http:// or https://".to_string());
    }
    let network = hearth_tools::NetworkConfig {
        allow_local: settings.allow_local_hosts.clone(),
        ..Default::default()
    };
    if let Some((entry, why)) = network.invalid_allow_entries().into_iter().next() {
        return Err(format!("allowed local host '{entry}': {why}"));
    }
    hearth_engine::user_rules(settings).map_err(to_message)?;
    if hearth_policy::SecurityProfile::parse(&settings.security_profile).is_none() {
        return Err(format!(
            "unknown security profile '{}'",
            settings.security_profile
        ));
    }
    Ok(())
}

/// Rebuilds the tools when `id` names a web search key (they read it from the keychain).
async fn follow_search_key(app: &tauri::AppHandle, id: &str) -> CommandResult<()> {
    if key_account(id) == provider_account(id) {
        return Ok(());
    }
    let app = app.clone();
    tokio::task::spawn_blocking(move || app.state::<AppState>().rebuild_tools())
        .await
        .map_err(to_message)
}

async fn keychain<T: Send + 'static>(
    state: &AppState,
    op: impl FnOnce(&dyn hearth_engine::SecretStore) -> Result<T, hearth_engine::SecretError>
        + Send
        + 'static,
) -> CommandResult<T> {
    let secrets = state.secrets.clone();
    tokio::task::spawn_blocking(move || op(secrets.as_ref()))
        .await
        .map_err(to_message)?
        .map_err(to_message)
}

#[tauri::command]
pub async fn get_key_status(
    state: State<'_, AppState>,
    provider_id: String,
) -> CommandResult<KeyStatus> {
    let account = key_account(&provider_id);
    let stored = keychain(&state, move |s| s.get(&account)).await?;
    Ok(KeyStatus {
        provider_id,
        stored: stored.is_some(),
        masked: stored.as_deref().map(mask_secret),
    })
}

#[tauri::command]
pub async fn set_api_key(
    app: tauri::AppHandle,
    state: State<'_, AppState>,
    provider_id: String,
    key: String,
) -> CommandResult<KeyStatus> {
    let key = key.trim().to_string();
    if key.is_empty() {
        return Err("the key is empty".to_string());
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
    })
}

#[tauri::command]
pub async fn delete_api_key(
    app: tauri::AppHandle,
    state: State<'_, AppState>,
    provider_id: String,
) -> CommandResult<()> {
    let account = key_account(&provider_id);
    keychain(&state, move |s| s.delete(&account)).await?;
    follow_search_key(&app, &provider_id).await
}

/// Lists the models the provider offers, proving the URL and key work.
#[tauri::command]
pub async fn test_connection(
    state: State<'_, AppState>,
    provider: ProviderEntry,
) -> CommandResult<Vec<String>> {
    let client = state.client_for(&provider).await?;
    let models = client.list_models().await.map_err(to_message)?;
    Ok(models.into_iter().map(|m| m.id).collect())
}

#[tauri::command]
pub fn list_audit(state: State<'_, AppState>, limit: u32) -> CommandResult<Vec<AuditRecord>> {
    state
        .store
        .list_audit(limit.clamp(1, 1_000) as usize)
        .map_err(to_message)
}

/// Called by the UI once its first screen is rendered: records the start-up time, with the UI's
/// own marks (`name` → wall-clock epoch milliseconds: page navigation start, script evaluated,
/// first data loaded) logged as milliseconds since the process started.
#[tauri::command]
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
