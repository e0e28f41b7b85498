//! Entry point of the Hearth desktop app.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    // Started again as the document worker: parse one file and exit, before any window.
    hearth_documents::serve_worker_if_asked();
    // Started again as the model worker: serve a local model until the app drops it.
    hearth_local::serve_worker_if_asked();
    hearth_app::run();
}
