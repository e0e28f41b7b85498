//! Where a server's OAuth tokens are kept: the keychain account `mcp:<name>:oauth`, as the
//! JSON `rmcp` stores (client ID, token response, granted scopes, issuer). One connection reads
//! the keychain once and keeps what it read (requests ask for the token each time); a keychain
//! that cannot be reached reads as no tokens, so servers without OAuth never need it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use hearth_core::{SecretError, SecretStore};
use rmcp::transport::auth::{AuthError, CredentialStore, StoredCredentials};

use super::tokens_account;

/// One server's tokens in a [`SecretStore`] (keychain calls run on a blocking thread).
pub(crate) struct KeychainCredentials {
    account: String,
    secrets: Arc<dyn SecretStore>,
    /// What the keychain holds, once read.
    cache: tokio::sync::Mutex<Option<Option<StoredCredentials>>>,
}

impl KeychainCredentials {
    pub fn new(server: &str, secrets: Arc<dyn SecretStore>) -> KeychainCredentials {
        KeychainCredentials {
            account: tokens_account(server),
            secrets,
            cache: tokio::sync::Mutex::new(None),
        }
    }

    async fn blocking<T: Send + 'static>(
        &self,
        call: impl FnOnce(&dyn SecretStore, &str) -> Result<T, SecretError> + Send + 'static,
    ) -> Result<T, AuthError> {
        let secrets = self.secrets.clone();
        let account = self.account.clone();
        tokio::task::spawn_blocking(move || call(secrets.as_ref(), &account))
            .await
            .map_err(|e| AuthError::CredentialStoreError(e.to_string()))?
            .map_err(|e| AuthError::CredentialStoreError(e.to_string()))
    }
}

#[async_trait::async_trait]
impl CredentialStore for KeychainCredentials {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        let mut cache = self.cache.lock().await;
        if let Some(cached) = cache.as_ref() {
            return Ok(cached.clone());
        }
        let stored = match self.blocking(|s, account| s.get(account)).await {
            // Unreadable tokens (another version's format) count as none: sign in again.
            Ok(stored) => stored.and_then(|json| serde_json::from_str(&json).ok()),
            Err(error) => {
                tracing::warn!(account = %self.account, %error, "OAuth tokens not read");
                None
            }
        };
        *cache = Some(stored.clone());
        Ok(stored)
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        let json = serde_json::to_string(&credentials)
            .map_err(|e| AuthError::CredentialStoreError(e.to_string()))?;
        self.blocking(move |s, account| s.set(account, &json))
            .await?;
        *self.cache.lock().await = Some(Some(credentials));
        Ok(())
    }

    async fn clear(&self) -> Result<(), AuthError> {
        self.blocking(|s, account| s.delete(account)).await?;
        *self.cache.lock().await = Some(None);
        Ok(())
    }
}

/// Secrets kept in memory for one process (headless clients and tests without a keychain).
#[derive(Default)]
pub struct MemorySecrets {
    values: Mutex<HashMap<String, String>>,
}

impl SecretStore for MemorySecrets {
    fn get(&self, account: &str) -> Result<Option<String>, SecretError> {
        Ok(self
            .values
            .lock()
            .map_err(|e| SecretError::Failed(e.to_string()))?
            .get(account)
            .cloned())
    }

    fn set(&self, account: &str, secret: &str) -> Result<(), SecretError> {
        self.values
            .lock()
            .map_err(|e| SecretError::Failed(e.to_string()))?
            .insert(account.to_string(), secret.to_string());
        Ok(())
    }

    fn delete(&self, account: &str) -> Result<(), SecretError> {
        self.values
            .lock()
            .map_err(|e| SecretError::Failed(e.to_string()))?
            .remove(account);
        Ok(())
    }
}
