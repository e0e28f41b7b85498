//! The tray icon and its menu: Open Hearth, New chat, the next scheduled run (a disabled line),
//! "Pause all jobs" (a check item kept in the settings), Quit — in the settings' language,
//! relabelled when it changes.

use hearth_protocol::{Language, Text};
use tauri::menu::{CheckMenuItem, Menu, MenuItem, PredefinedMenuItem};
use tauri::tray::TrayIconBuilder;
use tauri::{App, AppHandle, Manager, Wry};

use crate::scheduler;
use crate::window::{reveal, Reveal};

/// The tray's items: those that follow the jobs, and the fixed ones (relabelled on a language
/// change).
pub struct JobItems {
    pub next: MenuItem<Wry>,
    pub pause: CheckMenuItem<Wry>,
    open: MenuItem<Wry>,
    new_chat: MenuItem<Wry>,
    quit: MenuItem<Wry>,
}

pub fn install(app: &App, paused: bool, language: Language) -> tauri::Result<()> {
    let label = |text: Text| text.in_language(language);
    let open = MenuItem::with_id(app, "open", label(Text::TrayOpen), true, None::<&str>)?;
    let new_chat = MenuItem::with_id(
        app,
        "new_chat",
        label(Text::TrayNewChat),
        true,
        None::<&str>,
    )?;
    let next = MenuItem::with_id(
        app,
        "next_run",
        label(Text::TrayNoJobs),
        false,
        None::<&str>,
    )?;
    let pause = CheckMenuItem::with_id(
        app,
        "pause_jobs",
        label(Text::TrayPauseJobs),
        true,
        paused,
        None::<&str>,
    )?;
    let quit = MenuItem::with_id(app, "quit", label(Text::TrayQuit), true, None::<&str>)?;
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
    app.manage(JobItems {
        next,
        pause,
        open,
        new_chat,
        quit,
    });
    Ok(())
}

/// Relabels the tray in `language` (the next-run line follows with the jobs refresh).
pub fn relabel(app: &AppHandle, language: Language) {
    if let Some(items) = app.try_state::<JobItems>() {
        let label = |text: Text| text.in_language(language);
        let _ = items.open.set_text(label(Text::TrayOpen));
        let _ = items.new_chat.set_text(label(Text::TrayNewChat));
        let _ = items.pause.set_text(label(Text::TrayPauseJobs));
        let _ = items.quit.set_text(label(Text::TrayQuit));
    }
    jobs_changed(app);
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
