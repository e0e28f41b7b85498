//! Secrets: the [`SecretStore`] trait every secret is read and written through, and its
//! OS-keychain adapter.

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
