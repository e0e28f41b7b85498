//! The network tools' configuration from the user's settings (`allow_local_hosts`, `search`) and
//! the web search keys, which live only in the OS keychain (accounts `search:brave`,
//! `search:tavily`; `hearth-cli keys set brave|tavily`).

use hearth_protocol::Settings;
use hearth_tools::{NetworkConfig, SearchBackend, SearchConfig};

use crate::secrets::provider_account;
use hearth_core::SecretStore;

/// The key names that mean a web search backend rather than a model provider.
const SEARCH_KEY_IDS: [(&str, SearchBackend); 2] = [
    ("brave", SearchBackend::Brave),
    ("tavily", SearchBackend::Tavily),
];

/// Keychain account name for a search backend's key.
pub fn search_account(backend: SearchBackend) -> String {
    format!("search:{}", backend.as_str())
}

/// Keychain account for a key id as the CLI and the settings screen name it: `brave` and
/// `tavily` are the web search keys, `media-image` and `media-speech` the media providers'
/// (see [`crate::MEDIA_KEY_IDS`]), anything else a model provider's id.
pub fn key_account(id: &str) -> String {
    if let Some((_, account)) = crate::MEDIA_KEY_IDS.iter().find(|(name, _)| *name == id) {
        return (*account).to_string();
    }
    match SEARCH_KEY_IDS.iter().find(|(name, _)| *name == id) {
        Some((_, backend)) => search_account(*backend),
        None => provider_account(id),
    }
}

/// The network tools' settings: the allowed local hosts, the search backend and the search keys
/// read from `secrets`. A keychain that cannot be read leaves the keys out (logged once per start): web
/// search then says it has no backend rather than failing the whole registry.
pub fn network_config(settings: &Settings, secrets: &dyn SecretStore) -> NetworkConfig {
    let key = |backend: SearchBackend| crate::read_secret(secrets, &search_account(backend));
    let searxng_url =
        Some(settings.search.searxng_url.trim().to_string()).filter(|u| !u.is_empty());
    NetworkConfig {
        allow_local: settings.allow_local_hosts.clone(),
        search: SearchConfig {
            backend: settings.search.backend,
            searxng_url,
            brave_api_key: key(SearchBackend::Brave),
            tavily_api_key: key(SearchBackend::Tavily),
            brave_endpoint: None,
            tavily_endpoint: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hearth_core::SecretError;
    use hearth_protocol::SearchSettings;
    use std::collections::HashMap;
    use std::sync::Mutex;

    /// A keychain in memory; `broken` makes every read fail like a locked keychain.
    #[derive(Default)]
    struct MemorySecrets {
        keys: Mutex<HashMap<String, String>>,
        broken: bool,
    }

    impl SecretStore for MemorySecrets {
        fn get(&self, account: &str) -> Result<Option<String>, SecretError> {
            if self.broken {
                return Err(SecretError::Unavailable("locked".into()));
            }
            Ok(self.keys.lock().unwrap().get(account).cloned())
        }
        fn set(&self, account: &str, secret: &str) -> Result<(), SecretError> {
            self.keys
                .lock()
                .unwrap()
                .insert(account.into(), secret.into());
            Ok(())
        }
        fn delete(&self, account: &str) -> Result<(), SecretError> {
            self.keys.lock().unwrap().remove(account);
            Ok(())
        }
    }

    #[test]
    fn search_key_ids_have_their_own_accounts() {
        assert_eq!(key_account("brave"), "search:brave");
        assert_eq!(key_account("tavily"), "search:tavily");
        assert_eq!(key_account("openrouter"), "provider:openrouter");
        assert_eq!(key_account("Brave"), "provider:Brave");
    }

    #[test]
    fn defaults_allow_no_local_host_and_have_no_search_backend() {
        let config = network_config(&Settings::default(), &MemorySecrets::default());
        assert_eq!(config, NetworkConfig::default());
    }

    #[test]
    fn settings_and_keychain_make_the_config() {
        let secrets = MemorySecrets::default();
        secrets.set(&key_account("brave"), "brave-key").unwrap();
        secrets.set(&key_account("tavily"), "tavily-key").unwrap();
        let settings = Settings {
            allow_local_hosts: vec!["127.0.0.1:11434".into()],
            search: SearchSettings {
                backend: Some(SearchBackend::Tavily),
                searxng_url: "  https://searx.example.org ".into(),
            },
            ..Settings::default()
        };
        let config = network_config(&settings, &secrets);
        assert_eq!(config.allow_local, vec!["127.0.0.1:11434".to_string()]);
        assert_eq!(config.search.backend, Some(SearchBackend::Tavily));
        assert_eq!(
            config.search.searxng_url.as_deref(),
            Some("https://searx.example.org")
        );
        assert_eq!(config.search.brave_api_key.as_deref(), Some("brave-key"));
        assert_eq!(config.search.tavily_api_key.as_deref(), Some("tavily-key"));
    }

    #[test]
    fn an_unreadable_keychain_leaves_search_unconfigured() {
        let secrets = MemorySecrets {
            broken: true,
            ..MemorySecrets::default()
        };
        let config = network_config(&Settings::default(), &secrets);
        assert_eq!(config.search, SearchConfig::default());
    }
}
