//! API keys: the lookup order (explicit variable, `HEARTH_API_KEY`, the provider's usual
//! variable, then the keychain) and what the Settings page is told of a stored key.

use std::sync::atomic::{AtomicBool, Ordering};

use hearth_core::{SecretError, SecretStore};
use hearth_llm::ProviderKind;
use hearth_protocol::KeyStatus;

use crate::EngineError;

/// Set once this process has logged a keychain that cannot be read.
static UNREADABLE_LOGGED: AtomicBool = AtomicBool::new(false);

/// Logs a keychain that cannot be read while looking up `account`: a warning the first time in
/// this process, then only at debug level (the Settings page asks for several keys on each
/// open). The caller goes on as if no key were stored.
pub fn log_unreadable(account: &str, error: &SecretError) {
    if UNREADABLE_LOGGED.swap(true, Ordering::Relaxed) {
        tracing::debug!(account, %error, "the keychain cannot be read");
    } else {
        tracing::warn!(account, %error, "the keychain cannot be read: keys count as not stored (logged once per start)");
    }
}

/// The secret stored for `account`, or none: a keychain that cannot be read counts as no
/// secret stored (and is logged once per start).
pub fn read_secret(secrets: &dyn SecretStore, account: &str) -> Option<String> {
    secrets.get(account).unwrap_or_else(|error| {
        log_unreadable(account, &error);
        None
    })
}

/// Whether a key is stored for the settings screen's `id` under `account`, masked. A keychain
/// that cannot be asked is "no key stored" with `keychain_unavailable` set: a status lookup
/// never fails.
pub fn key_status(secrets: &dyn SecretStore, id: &str, account: &str) -> KeyStatus {
    let (stored, keychain_unavailable) = match secrets.get(account) {
        Ok(stored) => (stored, false),
        Err(error) => {
            log_unreadable(account, &error);
            (None, true)
        }
    };
    KeyStatus {
        provider_id: id.to_string(),
        stored: stored.is_some(),
        masked: stored.as_deref().map(mask_secret),
        keychain_unavailable,
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
    let key = read_secret(secrets, &provider_account(provider_id));
    if key.is_none() && !kind.key_optional() {
        tracing::info!(
            provider = provider_id,
            "no API key stored: asking without one"
        );
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A keychain answering every call with `error` (what the OS keychain says when it has no
    /// default collection, is locked, or is not running).
    struct Refusing(fn() -> SecretError);

    impl SecretStore for Refusing {
        fn get(&self, _: &str) -> Result<Option<String>, SecretError> {
            Err((self.0)())
        }
        fn set(&self, _: &str, _: &str) -> Result<(), SecretError> {
            Err((self.0)())
        }
        fn delete(&self, _: &str) -> Result<(), SecretError> {
            Err((self.0)())
        }
    }

    /// One stored secret, or none.
    struct Holding(Option<&'static str>);

    impl SecretStore for Holding {
        fn get(&self, _: &str) -> Result<Option<String>, SecretError> {
            Ok(self.0.map(str::to_string))
        }
        fn set(&self, _: &str, _: &str) -> Result<(), SecretError> {
            Ok(())
        }
        fn delete(&self, _: &str) -> Result<(), SecretError> {
            Ok(())
        }
    }

    #[test]
    fn a_stored_key_is_reported_masked() {
        let status = key_status(
            &Holding(Some("sk-abcdef1234")),
            "openrouter",
            "provider:openrouter",
        );
        assert!(status.stored);
        assert_eq!(status.masked.as_deref(), Some("••••1234"));
        assert!(!status.keychain_unavailable);
        assert_eq!(status.provider_id, "openrouter");
    }

    #[test]
    fn no_key_found_is_no_key_stored() {
        let status = key_status(&Holding(None), "lm-studio", "provider:lm-studio");
        assert!(!status.stored);
        assert_eq!(status.masked, None);
        assert!(!status.keychain_unavailable);
    }

    #[test]
    fn an_unreachable_or_refusing_keychain_is_no_key_stored_and_says_so() {
        let no_result =
            || SecretError::Unavailable("SS error: result not returned from SS API".into());
        let refused = || SecretError::Failed("object locked".into());
        for store in [Refusing(no_result), Refusing(refused)] {
            let status = key_status(&store, "brave", "search:brave");
            assert!(!status.stored);
            assert_eq!(status.masked, None);
            assert!(status.keychain_unavailable);
            assert_eq!(read_secret(&store, "search:brave"), None);
        }
    }

    #[test]
    fn masks_all_but_the_last_four_characters() {
        assert_eq!(mask_secret("sk-abcdef1234"), "••••1234");
        assert_eq!(mask_secret("ab"), "••••ab");
    }
}
