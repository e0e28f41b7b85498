//! The tray icon and its menu: Open Hearth, New chat, Quit.

use tauri::menu::{Menu, MenuItem};
use tauri::tray::TrayIconBuilder;
use tauri::{App, AppHandle, Emitter};

use crate::window::show_main;

/// Event the UI listens to when "New chat" is chosen in the tray.
pub const NEW_CHAT_EVENT: &str = "tray://new-chat";

pub fn install(app: &App) -> tauri::Result<()> {
    let open = MenuItem::with_id(app, "open", "Open Hearth", true, None::<&str>)?;
    let new_chat = MenuItem::with_id(app, "new_chat", "New chat", true, None::<&str>)?;
    let quit = MenuItem::with_id(app, "quit", "Quit", true, None::<&str>)?;
    let menu = Menu::with_items(app, &[&open, &new_chat, &quit])?;
    let mut tray = TrayIconBuilder::with_id("hearth")
        .tooltip("Hearth")
        .menu(&menu)
        .on_menu_event(|app, event| on_menu(app, event.id.as_ref()));
    if let Some(icon) = app.default_window_icon() {
        tray = tray.icon(icon.clone());
    }
    tray.build(app)?;
    Ok(())
}

fn on_menu(app: &AppHandle, id: &str) {
    match id {
        "open" => show_main(app),
        "new_chat" => {
            show_main(app);
            let _ = app.emit(NEW_CHAT_EVENT, ());
        }
        "quit" => app.exit(0),
        _ => {}
    }
}
