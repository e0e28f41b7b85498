//! Support for the desktop end-to-end suite: preconditions, test homes, the app under
//! tauri-driver, steps in its window, the process tree, the session bus and the tray menu, X11
//! helpers (close, drag and drop), a fake notification server, a real tray icon host, and a
//! keyring with no login collection on a bus of its own.

pub mod app;
pub mod bus;
pub mod env;
pub mod home;
pub mod keyring;
pub mod notifications;
pub mod procs;
pub mod tray;
pub mod tray_host;
pub mod turn;
pub mod ui;
pub mod x11;
