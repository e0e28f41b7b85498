//! Entry point of the Hearth desktop app.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    hearth_app::run();
}
