//! Secrets: the [`SecretStore`] trait every secret is read and written through, and its
//! OS-keychain adapter.

use std::sync::{Arc, Mutex, PoisonError};

use keyring_core::{CredentialStore, Entry};

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

    fn entry(&self, account: &str) -> Result<Entry, SecretError> {
        Entry::new_in_store(&platform_store()?, &self.service, account).map_err(classify)
    }
}

impl Default for KeyringStore {
    fn default() -> Self {
        KeyringStore::new()
    }
}

/// The platform's credential store, opened when a secret is first read or written (on Linux
/// that connects to the session bus: a command that uses no secret never does) and kept for the
/// process; an open that failed is tried again by the next call.
static OPENED: Mutex<Option<Arc<CredentialStore>>> = Mutex::new(None);

fn platform_store() -> Result<Arc<CredentialStore>, SecretError> {
    let mut opened = OPENED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(store) = opened.as_ref() {
        return Ok(Arc::clone(store));
    }
    let store = open_platform_store().map_err(classify)?;
    *opened = Some(Arc::clone(&store));
    Ok(store)
}

#[cfg(target_os = "macos")]
fn open_platform_store() -> keyring_core::Result<Arc<CredentialStore>> {
    let store: Arc<CredentialStore> = apple_native_keyring_store::keychain::Store::new()?;
    Ok(store)
}

#[cfg(target_os = "windows")]
fn open_platform_store() -> keyring_core::Result<Arc<CredentialStore>> {
    let store: Arc<CredentialStore> = windows_native_keyring_store::Store::new()?;
    Ok(store)
}

/// The Secret Service over zbus (pure Rust: no libdbus to load at every start). It finds the
/// items keyring 3's libdbus backend wrote, by the same `service` and `username` attributes.
#[cfg(all(unix, not(target_os = "macos")))]
fn open_platform_store() -> keyring_core::Result<Arc<CredentialStore>> {
    let store: Arc<CredentialStore> = zbus_secret_service_keyring_store::Store::new()?;
    Ok(store)
}

/// The Secret Service store searches every collection, so a keyring without a default (login)
/// collection answers "no such key" although no key could be saved there either: that is a
/// keychain that is not available (as keyring 3, which looked in the default collection, said).
#[cfg(all(unix, not(target_os = "macos")))]
fn can_store() -> Result<(), SecretError> {
    use secret_service::{blocking::SecretService, EncryptionType};
    let unavailable = |e: secret_service::Error| SecretError::Unavailable(e.to_string());
    let service = SecretService::connect(EncryptionType::Plain).map_err(unavailable)?;
    service.get_default_collection().map_err(unavailable)?;
    Ok(())
}

/// Keychain and Credential Manager always have somewhere to save.
#[cfg(not(all(unix, not(target_os = "macos"))))]
fn can_store() -> Result<(), SecretError> {
    Ok(())
}

fn classify(error: keyring_core::Error) -> SecretError {
    match error {
        keyring_core::Error::NoStorageAccess(e) | keyring_core::Error::PlatformFailure(e) => {
            SecretError::Unavailable(e.to_string())
        }
        other => SecretError::Failed(other.to_string()),
    }
}

impl SecretStore for KeyringStore {
    fn get(&self, account: &str) -> Result<Option<String>, SecretError> {
        match self.entry(account)?.get_password() {
            Ok(secret) => Ok(Some(secret)),
            Err(keyring_core::Error::NoEntry) => {
                can_store()?;
                Ok(None)
            }
            Err(e) => Err(classify(e)),
        }
    }

    fn set(&self, account: &str, secret: &str) -> Result<(), SecretError> {
        self.entry(account)?.set_password(secret).map_err(classify)
    }

    fn delete(&self, account: &str) -> Result<(), SecretError> {
        match self.entry(account)?.delete_credential() {
            Ok(()) | Err(keyring_core::Error::NoEntry) => Ok(()),
            Err(e) => Err(classify(e)),
        }
    }
}
