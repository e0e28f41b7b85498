//! The MCP servers in the app: started in the background after the window is set up (a slow or
//! broken server never delays it), and the shared tool runner rebuilt whenever a server's state
//! or tools change, so the next turn offers exactly the tools of the servers ready then.

use tauri::{AppHandle, Manager};

use crate::state::AppState;

pub fn start(app: &AppHandle) {
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        let state = app.state::<AppState>();
        state.mcp.start_background();
        let mut changes = state.mcp.watch();
        while changes.next().await {
            let app = app.clone();
            let rebuilt = tauri::async_runtime::spawn_blocking(move || {
                app.state::<AppState>().rebuild_tools();
            });
            if let Err(error) = rebuilt.await {
                tracing::error!(%error, "tool runner not rebuilt after an MCP change");
            }
        }
    });
}
