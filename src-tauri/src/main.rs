//! Entry point of the Hearth desktop app.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    // Started again as the document worker (when `hearth-document-worker` is not beside it):
    // parse one file and exit, before any window.
    hearth_documents::serve_worker_if_asked();
    hearth_app::run();
}
