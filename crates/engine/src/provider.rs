//! Model clients from configured providers: the API key from the environment or the keychain,
//! the provider's default base URL when none is set.

use std::time::Duration;

use hearth_llm::{build_client, ProviderConfig, RetryPolicy, SharedModelClient};
use hearth_local::LocalModels;
use hearth_protocol::{ProviderEntry, Settings};

use crate::secrets::resolve_api_key;
use crate::EngineError;
use hearth_core::SecretStore;

/// A client for `entry`, its key found as [`resolve_api_key`] does; a `local` provider's is
/// `local`'s, with no key. Blocks on the keychain: from async code, run it on a blocking thread.
pub fn model_client(
    entry: &ProviderEntry,
    explicit_env: Option<&str>,
    secrets: &dyn SecretStore,
    local: &LocalModels,
) -> Result<SharedModelClient, EngineError> {
    if entry.kind.in_process() {
        return Ok(local.client());
    }
    let api_key = resolve_api_key(entry.kind, &entry.id, explicit_env, secrets)?;
    client_with_key(entry, api_key, local)
}

/// A model client for `entry` with `api_key` as given (none for a keyless server): how a
/// provider is tried before it is saved, with the key typed in its form.
pub fn client_with_key(
    entry: &ProviderEntry,
    api_key: Option<String>,
    local: &LocalModels,
) -> Result<SharedModelClient, EngineError> {
    let kind = entry.kind;
    if kind.in_process() {
        return Ok(local.client());
    }
    let base_url = if entry.base_url.is_empty() {
        kind.default_base_url().to_string()
    } else {
        entry.base_url.clone()
    };
    Ok(build_client(ProviderConfig {
        kind,
        provider_id: entry.id.clone(),
        base_url,
        api_key,
        retry: RetryPolicy::default(),
        connect_timeout: Duration::from_secs(30),
    })?)
}

/// The provider and model for a run that asks for `requested`: `<provider id>:<model>` picks a
/// configured provider, any other name is a model of the default provider, and nothing means
/// the default provider's default model (else the settings' default model).
pub fn choose_provider(
    settings: &Settings,
    requested: Option<&str>,
) -> Result<(ProviderEntry, String), EngineError> {
    let requested = requested.map(str::trim).filter(|m| !m.is_empty());
    if let Some((provider, model)) = requested.and_then(|m| m.split_once(':')) {
        if let Some(entry) = settings.providers.iter().find(|p| p.id == provider) {
            if !model.trim().is_empty() {
                return Ok((entry.clone(), model.trim().to_string()));
            }
        }
    }
    let entry = crate::config::default_provider(settings)
        .cloned()
        .ok_or(EngineError::NoProvider)?;
    let model = requested
        .map(str::to_string)
        .or_else(|| entry.default_model.clone())
        .or_else(|| settings.default_model.clone())
        .ok_or_else(|| EngineError::NoModel(entry.id.clone()))?;
    Ok((entry, model))
}
