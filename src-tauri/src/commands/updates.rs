//! Settings → About: the running version, checking for a newer one on demand, and installing
//! the one offered (then Hearth restarts).

use hearth_ipc_macros::command;
use hearth_protocol::{AboutInfo, AppError, UpdateCheck};
use tauri::{AppHandle, State};

use crate::state::{AppState, CommandResult};
use crate::updates::{self, PendingUpdate};

#[command]
pub fn about(app: AppHandle, state: State<'_, AppState>) -> AboutInfo {
    let updates = state.settings().updates;
    AboutInfo {
        version: app.package_info().version.to_string(),
        updates_enabled: updates.enabled(),
        endpoint: updates.endpoint,
    }
}

#[command]
pub async fn check_for_update(
    app: AppHandle,
    state: State<'_, AppState>,
    pending: State<'_, PendingUpdate>,
) -> CommandResult<UpdateCheck> {
    let update = updates::check(&app, &state.settings().updates).await?;
    let outcome = updates::outcome(app.package_info().version.to_string(), update.as_ref());
    pending.set(update);
    Ok(outcome)
}

#[command]
pub async fn install_update(
    app: AppHandle,
    pending: State<'_, PendingUpdate>,
) -> CommandResult<()> {
    let update = pending.take().ok_or(AppError::NoPendingUpdate)?;
    tracing::info!(version = %update.version, "installing an update");
    updates::install(&update).await?;
    app.restart()
}
