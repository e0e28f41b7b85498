//! The tray icon and its menu: Open Hearth, New chat, the next scheduled run (a disabled line),
//! "Pause all jobs" (a check item kept in the settings), Quit.

use tauri::menu::{CheckMenuItem, Menu, MenuItem, PredefinedMenuItem};
use tauri::tray::TrayIconBuilder;
use tauri::{App, AppHandle, Manager, Wry};

use crate::scheduler;
use crate::window::{reveal, Reveal};

/// The tray items that follow the jobs.
pub struct JobItems {
    pub next: MenuItem<Wry>,
    pub pause: CheckMenuItem<Wry>,
}

pub fn install(app: &App, paused: bool) -> tauri::Result<()> {
    let open = MenuItem::with_id(app, "open", "Open Hearth", true, None::<&str>)?;
    let new_chat = MenuItem::with_id(app, "new_chat", "New chat", true, None::<&str>)?;
    let next = MenuItem::with_id(app, "next_run", "No scheduled jobs", false, None::<&str>)?;
    let pause = CheckMenuItem::with_id(
        app,
        "pause_jobs",
        "Pause all jobs",
        true,
        paused,
        None::<&str>,
    )?;
    let quit = MenuItem::with_id(app, "quit", "Quit", true, None::<&str>)?;
    let (line, line2) = (
        PredefinedMenuItem::separator(app)?,
        PredefinedMenuItem::separator(app)?,
    );
    let menu = Menu::with_items(
        app,
        &[&open, &new_chat, &line, &next, &pause, &line2, &quit],
    )?;
    let mut tray = TrayIconBuilder::with_id("hearth")
        .tooltip("Hearth")
        .menu(&menu)
        .on_menu_event(|app, event| on_menu(app, event.id.as_ref()));
    if let Some(icon) = app.default_window_icon() {
        tray = tray.icon(icon.clone());
    }
    tray.build(app)?;
    app.manage(JobItems { next, pause });
    Ok(())
}

/// Jobs changed (or a run started or ended): refresh the next-run line and the Jobs page.
pub fn jobs_changed(app: &AppHandle) {
    if let Some(scheduler) = app.try_state::<scheduler::AppScheduler>() {
        scheduler.refresh();
    }
}

fn on_menu(app: &AppHandle, id: &str) {
    match id {
        "open" => reveal(app, Reveal::Show),
        "new_chat" => reveal(app, Reveal::NewChat),
        "pause_jobs" => scheduler::toggle_pause(app),
        "quit" => app.exit(0),
        _ => {}
    }
}
