//! Settings → Channels: how each configured channel stands (built, why not, polled), its token
//! in the OS keychain (`channel:<name>`; only a masked hint comes back), and a test message
//! with the channel's real delivery result.

use hearth_engine::mask_secret;
use hearth_ipc_macros::command;
use hearth_protocol::{AppError, ChannelDelivery, ChannelSettings, ChannelStatus, KeyStatus, Text};
use hearth_tools::channels::{Outbound, Target, DELIVERY_LIMIT};
use tauri::State;

use crate::commands::settings::{key_status, keychain};
use crate::state::{AppState, CommandResult};

/// The configured channel `name`.
fn configured(state: &AppState, name: &str) -> CommandResult<ChannelSettings> {
    state
        .settings()
        .channels
        .into_iter()
        .find(|c| c.name == name)
        .ok_or_else(|| AppError::BadChannel {
            name: name.to_string(),
            reason: "no such channel is saved".into(),
        })
}

#[command]
pub async fn channel_statuses(state: State<'_, AppState>) -> CommandResult<Vec<ChannelStatus>> {
    let mut statuses = Vec::new();
    for channel in state.settings().channels {
        let ready = state.builder.channels().external(&channel.name).is_some();
        let problem = match state.channel_problem(&channel.name) {
            Some(problem) => Some(problem),
            None => crate::gateway::stopped(&state, &channel.name).await,
        }
        .or_else(|| (!channel.enabled).then(|| "turned off".to_string()));
        statuses.push(ChannelStatus {
            polling: crate::gateway::polling(&state, &channel.name).await,
            name: channel.name,
            ready,
            problem,
        });
    }
    Ok(statuses)
}

#[command]
pub async fn channel_token_status(
    state: State<'_, AppState>,
    name: String,
) -> CommandResult<KeyStatus> {
    let account = configured(&state, &name)?.token_account();
    key_status(&state, name, account).await
}

#[command]
pub async fn set_channel_token(
    app: tauri::AppHandle,
    state: State<'_, AppState>,
    name: String,
    token: String,
) -> CommandResult<KeyStatus> {
    let token = token.trim().to_string();
    if token.is_empty() {
        return Err(AppError::EmptyKey);
    }
    let account = configured(&state, &name)?.token_account();
    let masked = mask_secret(&token);
    keychain(&state, move |s| s.set(&account, &token)).await?;
    tracing::info!(channel = %name, "channel token stored in the OS keychain");
    crate::gateway::restart(&app).await;
    Ok(KeyStatus {
        provider_id: name,
        stored: true,
        masked: Some(masked),
        keychain_unavailable: false,
    })
}

#[command]
pub async fn delete_channel_token(
    app: tauri::AppHandle,
    state: State<'_, AppState>,
    name: String,
) -> CommandResult<()> {
    let account = configured(&state, &name)?.token_account();
    keychain(&state, move |s| s.delete(&account)).await?;
    crate::gateway::restart(&app).await;
    Ok(())
}

/// Sends the test message (a webhook's chat `test`, a Telegram bot's first allowed chat) and
/// waits for the channel's answer.
#[command]
pub async fn test_channel(
    state: State<'_, AppState>,
    name: String,
) -> CommandResult<ChannelDelivery> {
    let channel = configured(&state, &name)?;
    let bad = |reason: String| AppError::BadChannel {
        name: name.clone(),
        reason,
    };
    let target = hearth_channels::test_target(&channel).map_err(|e| bad(e.to_string()))?;
    if state.builder.channels().external(&name).is_none() {
        let reason = state
            .channel_problem(&name)
            .unwrap_or_else(|| "it is turned off".to_string());
        return Err(bad(format!("it could not be used: {reason}")));
    }
    let message = Outbound {
        target: Target::parse("target", &target).map_err(|e| bad(e.message))?,
        text: Text::ChannelTest.in_language(state.settings().language),
        files: Vec::new(),
        origin: "desktop:settings".into(),
        model: None,
    };
    let failed = |reason: String| AppError::DeliveryFailed {
        target: target.clone(),
        reason,
    };
    match tokio::time::timeout(DELIVERY_LIMIT, state.builder.channels().send(&message)).await {
        Ok(Ok(delivered)) => Ok(ChannelDelivery {
            target: target.clone(),
            message_ids: delivered.message_ids,
        }),
        Ok(Err(reason)) => Err(failed(reason.to_string())),
        Err(_) => Err(failed(format!(
            "no delivery result within {} s",
            DELIVERY_LIMIT.as_secs()
        ))),
    }
}
