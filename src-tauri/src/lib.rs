//! The Hearth desktop shell: builds the Tauri app around the engine.

/// Starts the desktop app and blocks until it exits.
pub fn run() {
    let result = tauri::Builder::default().run(tauri::generate_context!());
    if let Err(error) = result {
        tracing::error!(%error, "Hearth could not start");
        std::process::exit(1);
    }
}
