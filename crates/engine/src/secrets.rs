//! API keys: the [`SecretStore`] trait, the OS-keychain implementation, and the lookup order
//! (explicit variable, `HEARTH_API_KEY`, the provider's usual variable, then the keychain).

use hearth_llm::ProviderKind;

use crate::EngineError;

/// Keychain service name every Hearth secret is stored under.
pub const KEYCHAIN_SERVICE: &str = "Hearth";

/// Why a secret could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    #[error("the OS keychain is not reachable ({0}). On Linux start and unlock a Secret Service provider (gnome-keyring or KeePassXC); or set HEARTH_API_KEY (or the provider's usual variable, e.g. OPENAI_API_KEY) in the environment instead")]
    Unavailable(String),
    #[error("the OS keychain refused the operation: {0}")]
    Failed(String),
}

/// Where secrets live. Implementations must never log secret values.
pub trait SecretStore: Send + Sync {
    fn get(&self, account: &str) -> Result<Option<String>, SecretError>;
    fn set(&self, account: &str, secret: &str) -> Result<(), SecretError>;
    fn delete(&self, account: &str) -> Result<(), SecretError>;
}

/// The OS keychain (Secret Service on Linux, Keychain on macOS, Credential Manager on Windows).
/// Calls block: from async code, run them on a blocking thread.
#[derive(Debug, Clone)]
pub struct KeyringStore {
    service: String,
}

impl KeyringStore {
    pub fn new() -> KeyringStore {
        KeyringStore {
            service: KEYCHAIN_SERVICE.to_string(),
        }
    }

    fn entry(&self, account: &str) -> Result<keyring::Entry, SecretError> {
        keyring::Entry::new(&self.service, account).map_err(classify)
    }
}

impl Default for KeyringStore {
    fn default() -> Self {
        KeyringStore::new()
    }
}

fn classify(error: keyring::Error) -> SecretError {
    match error {
        keyring::Error::NoStorageAccess(e) => SecretError::Unavailable(e.to_string()),
        keyring::Error::PlatformFailure(e) => SecretError::Unavailable(e.to_string()),
        other => SecretError::Failed(other.to_string()),
    }
}

impl SecretStore for KeyringStore {
    fn get(&self, account: &str) -> Result<Option<String>, SecretError> {
        match self.entry(account)?.get_password() {
            Ok(secret) => Ok(Some(secret)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(classify(e)),
        }
    }

    fn set(&self, account: &str, secret: &str) -> Result<(), SecretError> {
        self.entry(account)?.set_password(secret).map_err(classify)
    }

    fn delete(&self, account: &str) -> Result<(), SecretError> {
        match self.entry(account)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(classify(e)),
        }
    }
}

/// Keychain account name for a provider's key.
pub fn provider_account(provider_id: &str) -> String {
    format!("provider:{provider_id}")
}

/// `••••` plus the last four characters, for showing a stored key.
pub fn mask_secret(secret: &str) -> String {
    let chars: Vec<char> = secret.chars().collect();
    let tail: String = chars[chars.len().saturating_sub(4)..].iter().collect();
    format!("••••{tail}")
}

fn env_value(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// Finds the API key for a provider. Order: `explicit_env` (the CLI's `--api-key-env`), then
/// `HEARTH_API_KEY`, then the provider's usual variable, then the keychain. No key found (and a
/// keychain that cannot be reached) means none: the provider is asked without one, as local
/// servers expect, and a refusal then says where to put a key.
pub fn resolve_api_key(
    kind: ProviderKind,
    provider_id: &str,
    explicit_env: Option<&str>,
    secrets: &dyn SecretStore,
) -> Result<Option<String>, EngineError> {
    if let Some(var) = explicit_env {
        return env_value(var).map(Some).ok_or_else(|| {
            EngineError::Config(format!(
                "--api-key-env {var}: the variable {var} is not set"
            ))
        });
    }
    if let Some(key) = env_value("HEARTH_API_KEY").or_else(|| env_value(kind.key_env_var())) {
        return Ok(Some(key));
    }
    match secrets.get(&provider_account(provider_id)) {
        Ok(Some(key)) => Ok(Some(key)),
        Ok(None) => {
            if !kind.key_optional() {
                tracing::info!(
                    provider = provider_id,
                    "no API key stored: asking without one"
                );
            }
            Ok(None)
        }
        Err(e) => {
            tracing::warn!(provider = provider_id, error = %e, "no API key: the keychain cannot be read, so the provider is asked without one");
            Ok(None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_all_but_the_last_four_characters() {
        assert_eq!(mask_secret("sk-abcdef1234"), "••••1234");
        assert_eq!(mask_secret("ab"), "••••ab");
    }
}
