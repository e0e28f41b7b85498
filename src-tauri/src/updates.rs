//! Updates through `tauri-plugin-updater`: asks the endpoint set in `config.toml` (`[updates]`)
//! for a newer version only when the user checks in Settings → About, keeps what it offered
//! until the user installs it, and installs only a package whose signature matches the
//! configured public key (the plugin verifies it before installing).

use std::sync::Mutex;

use hearth_protocol::{AppError, AvailableUpdate, UpdateCheck, UpdateSettings};
use tauri::{AppHandle, Runtime};
use tauri_plugin_updater::{Update, UpdaterExt};

/// How long one request to the update server may take.
const TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// The update the last check offered, waiting for the user's "Install and restart".
#[derive(Default)]
pub struct PendingUpdate(Mutex<Option<Update>>);

impl PendingUpdate {
    pub fn set(&self, update: Option<Update>) {
        match self.0.lock() {
            Ok(mut pending) => *pending = update,
            Err(poisoned) => *poisoned.into_inner() = update,
        }
    }

    pub fn take(&self) -> Option<Update> {
        match self.0.lock() {
            Ok(mut pending) => pending.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        }
    }
}

/// Asks the configured endpoint whether a newer version exists.
pub async fn check<R: Runtime>(
    app: &AppHandle<R>,
    settings: &UpdateSettings,
) -> Result<Option<Update>, AppError> {
    if !settings.enabled() {
        return Err(AppError::UpdatesOff);
    }
    let endpoint = tauri::Url::parse(&settings.endpoint).map_err(failed)?;
    let updater = app
        .updater_builder()
        .endpoints(vec![endpoint])
        .map_err(failed)?
        .pubkey(settings.pubkey.clone())
        .timeout(TIMEOUT)
        .build()
        .map_err(failed)?;
    updater.check().await.map_err(failed)
}

/// What the About page shows about a check's result.
pub fn outcome(current_version: String, update: Option<&Update>) -> UpdateCheck {
    UpdateCheck {
        current_version,
        available: update.map(|update| AvailableUpdate {
            version: update.version.clone(),
            notes: update.body.clone(),
            date: update.raw_json["pub_date"].as_str().map(str::to_string),
        }),
    }
}

/// Downloads the offered package, verifies its signature and installs it.
pub async fn install(update: &Update) -> Result<(), AppError> {
    update
        .download_and_install(|_, _| {}, || {})
        .await
        .map_err(failed)
}

fn failed(error: impl std::fmt::Display) -> AppError {
    AppError::UpdateFailed {
        message: error.to_string(),
    }
}

#[cfg(test)]
#[path = "updates_tests.rs"]
mod tests;
