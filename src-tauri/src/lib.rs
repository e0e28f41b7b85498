//! The Hearth desktop shell: the composition root that wires the engine to the window, the tray,
//! OS notifications, the keychain and the dialog plugin.

mod approvals;
mod autostart;
mod background_built;
mod closing;
mod commands;
#[cfg(test)]
mod contract;
mod events;
mod gateway;
mod idle_memory;
mod mcp;
mod next_run;
mod notices;
mod parking;
mod rendering;
mod scheduler;
mod startup_problem;
mod state;
mod stream;
mod subagents;
mod tasks;
mod tray;
mod tray_host;
mod updates;
mod window;

use tauri::Manager;

use crate::commands::{knowledge, model_downloads, skills};
use crate::state::AppState;

/// Starts the desktop app and blocks until it exits.
pub fn run() {
    let started = std::time::Instant::now();
    // Before any thread starts: it may set an environment variable WebKit reads.
    let software_rendering = rendering::choose();
    let dir = match hearth_core::DataDir::resolve() {
        Ok(dir) => dir,
        Err(error) => fail(&error.to_string()),
    };
    init_logging(&dir);
    if software_rendering {
        tracing::info!(
            "no GPU: WebKit draws without compositing (WEBKIT_DISABLE_COMPOSITING_MODE=1)"
        );
    }
    let state = match AppState::open(dir.clone(), started) {
        Ok(state) => state,
        Err(error) => {
            let problem = hearth_engine::startup_problem(&dir, &error);
            let message = format!("cannot open Hearth's data: {error}");
            tracing::error!(message, kind = ?problem.kind, path = problem.path, "fatal");
            #[allow(clippy::print_stderr)]
            {
                eprintln!("hearth: {message}");
            }
            startup_problem::run(problem);
            std::process::exit(1)
        }
    };
    tracing::info!(ms = started.elapsed().as_millis() as u64, "data opened");
    let built = tauri::Builder::default()
        .plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| {
            window::show_main(app)
        }))
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_updater::Builder::new().build())
        .plugin(tauri_plugin_autostart::init(
            tauri_plugin_autostart::MacosLauncher::LaunchAgent,
            None,
        ))
        .manage(state)
        .manage(parking::Parking::from_env())
        .manage(updates::PendingUpdate::default())
        .manage(skills::install::PendingInstalls::default())
        .setup(move |app| {
            let settings = app.state::<AppState>().settings();
            tracing::info!(ms = started.elapsed().as_millis() as u64, "setup");
            tray::install(app, settings.jobs_paused, settings.language)?;
            autostart::apply(app.handle(), settings.start_at_login);
            scheduler::start(app.handle());
            mcp::start(app.handle());
            subagents::start(app.handle());
            gateway::start(app.handle());
            knowledge::start(app.handle());
            model_downloads::start(app.handle());
            tracing::info!(ms = started.elapsed().as_millis() as u64, "setup done");
            Ok(())
        })
        .on_window_event(window::on_window_event)
        .invoke_handler(commands::app_commands!(tauri::generate_handler))
        .build(tauri::generate_context!());
    match built {
        Ok(app) => app.run(on_run_event),
        Err(error) => {
            if handoff_failed(&error) {
                restart();
            }
            fail(&format!("Hearth could not start: {error}"));
        }
    }
}

/// The app keeps running with no window (torn down in the tray, see [`parking`]): only an exit
/// asked for with a code (the tray's Quit) ends it. At exit the job runner stops (runs in
/// progress recorded as interrupted, the lease freed), and background processes and terminal
/// sessions the tools started die with the app.
fn on_run_event(app: &tauri::AppHandle, event: tauri::RunEvent) {
    match event {
        tauri::RunEvent::ExitRequested {
            code: None, api, ..
        } => api.prevent_exit(),
        tauri::RunEvent::Exit => {
            scheduler::stop(app);
            app.state::<AppState>().shutdown();
        }
        _ => {}
    }
}

/// Set for a process started by [`restart`], so it restarts at most once.
const RESTARTED_ENV: &str = "HEARTH_RESTARTED";

/// A second launch hands its arguments to the running instance over the single-instance plugin.
/// When that instance quits during the handshake (a relaunch right after Quit) the handoff fails:
/// this process should then simply become the app.
fn handoff_failed(error: &tauri::Error) -> bool {
    matches!(error, tauri::Error::PluginInitialization(plugin, _) if plugin == "single-instance")
        && std::env::var_os(RESTARTED_ENV).is_none()
}

/// Starts this program again with the same arguments, once the quitting instance is gone;
/// returns only if that is impossible.
fn restart() {
    tracing::warn!("the running Hearth quit while this one was starting; starting again");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let mut command = std::process::Command::new(exe);
    command
        .args(std::env::args_os().skip(1))
        .env(RESTARTED_ENV, "1");
    #[cfg(unix)]
    let error = std::os::unix::process::CommandExt::exec(&mut command);
    #[cfg(not(unix))]
    let error = match command.spawn() {
        Ok(_) => std::process::exit(0),
        Err(error) => error,
    };
    tracing::error!(%error, "could not start Hearth again");
}

fn init_logging(dir: &hearth_core::DataDir) {
    let _ = std::fs::create_dir_all(dir.logs());
    let Ok(file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.logs().join("hearth.log"))
    else {
        return;
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("HEARTH_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(std::sync::Mutex::new(file))
        .try_init();
}

fn fail(message: &str) -> ! {
    tracing::error!(message, "fatal");
    #[allow(clippy::print_stderr)]
    {
        eprintln!("hearth: {message}");
    }
    std::process::exit(1)
}
