//! The Hearth desktop shell: builds the Tauri app around the engine.

pub fn run() {}
