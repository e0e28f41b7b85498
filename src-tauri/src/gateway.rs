//! The channels in the app: the inbound gateway polls every enabled channel with `inbound` on
//! (started after the window is set up; a chat that writes in gets its session, which the
//! window refreshes), and the channels are built again and the gateway restarted whenever the
//! channels, their tokens or the local-host allow list change.

use tauri::{AppHandle, Manager};

use crate::events::{CHANNELS_CHANGED, SESSION_APPENDED};
use crate::state::AppState;

/// Starts polling the inbound channels built at start-up (call once, in `setup`).
pub fn start(app: &AppHandle) {
    let app = app.clone();
    tauri::async_runtime::spawn(async move { serve(&app, false).await });
}

/// Builds the channels again (tokens from the keychain) and restarts the gateway over them.
pub async fn restart(app: &AppHandle) {
    serve(app, true).await;
}

async fn serve(app: &AppHandle, reload: bool) {
    let state = app.state::<AppState>();
    // One restart at a time: the old loops stop before the new ones poll the same bots.
    let mut gateway = state.gateway.lock().await;
    if let Some(old) = gateway.take() {
        old.stop().await;
    }
    if reload {
        let reloader = app.clone();
        let reloaded = tauri::async_runtime::spawn_blocking(move || {
            reloader.state::<AppState>().reload_channels();
        })
        .await;
        if let Err(error) = reloaded {
            tracing::error!(%error, "channels not rebuilt");
        }
    }
    let settings_app = app.clone();
    let emitter = app.clone();
    let handle = hearth_engine::Gateway::new(state.builder.clone(), move || {
        Ok(settings_app.state::<AppState>().settings())
    })
    .with_listener(move |session_id| {
        let _ = SESSION_APPENDED.emit(&emitter, session_id);
    })
    .serve();
    tracing::info!(polling = handle.polling(), "inbound channels served");
    *gateway = Some(handle);
    drop(gateway);
    let _ = CHANNELS_CHANGED.emit(app, &());
}

/// Whether the gateway polls a channel named `name` now.
pub async fn polling(state: &AppState, name: &str) -> bool {
    state
        .gateway
        .lock()
        .await
        .as_ref()
        .is_some_and(|g| g.polls(name))
}

/// Why the gateway stopped polling channel `name` for good (a refused token…), if it did.
pub async fn stopped(state: &AppState, name: &str) -> Option<String> {
    state
        .gateway
        .lock()
        .await
        .as_ref()
        .and_then(|g| g.stopped(name))
}
