//! The Hearth desktop shell: the composition root that wires the engine to the window, the tray,
//! OS notifications, the keychain and the dialog plugin.

mod approvals;
mod autostart;
mod closing;
mod commands;
mod gateway;
mod idle_memory;
mod mcp;
mod next_run;
mod notices;
mod parking;
mod scheduler;
mod startup_problem;
mod state;
mod stream;
mod subagents;
mod tray;
mod tray_host;
mod updates;
mod window;

use tauri::Manager;

use crate::commands::{
    artifacts, attachments, browser, channels, jobs, knowledge, local_models, mcp as mcp_commands,
    mcp_auth, mcp_content, media, memory, model_downloads, planning, problems, rules, security,
    sessions, settings, skills, terminals, turns, updates as update_commands,
    window as window_commands,
};
use crate::state::AppState;

/// Starts the desktop app and blocks until it exits.
pub fn run() {
    let started = std::time::Instant::now();
    let dir = match hearth_core::DataDir::resolve() {
        Ok(dir) => dir,
        Err(error) => fail(&error.to_string()),
    };
    init_logging(&dir);
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
        .invoke_handler(tauri::generate_handler![
            sessions::list_sessions,
            sessions::create_session,
            sessions::rename_session,
            sessions::set_session_pinned,
            sessions::set_session_model,
            sessions::set_session_workspace,
            sessions::delete_session,
            sessions::list_message_page,
            sessions::search_messages,
            turns::send_message,
            turns::regenerate,
            turns::edit_message,
            turns::cancel_turn,
            turns::cancel_subagent,
            turns::list_background_tasks,
            turns::resolve_approval,
            planning::todo_list,
            planning::answer_question,
            planning::answer_form,
            attachments::prepare_attachment,
            attachments::attach_bytes,
            attachments::paste_clipboard_image,
            media::read_workspace_media,
            channels::channel_statuses,
            channels::channel_token_status,
            channels::set_channel_token,
            channels::delete_channel_token,
            channels::test_channel,
            artifacts::artifact_view,
            artifacts::save_artifact,
            knowledge::knowledge_status,
            local_models::local_models,
            local_models::import_local_model,
            local_models::remove_local_model,
            model_downloads::model_downloads,
            model_downloads::start_model_download,
            model_downloads::pause_model_download,
            model_downloads::resume_model_download,
            model_downloads::cancel_model_download,
            knowledge::knowledge_rebuild,
            knowledge::knowledge_search,
            knowledge::open_knowledge_file,
            settings::get_settings,
            settings::save_settings,
            settings::get_key_status,
            settings::set_api_key,
            settings::delete_api_key,
            settings::test_connection,
            settings::detect_local_servers,
            settings::list_audit,
            settings::app_ready,
            problems::log_ui_error,
            problems::open_data_folder,
            rules::validate_rules,
            mcp_commands::mcp_servers,
            mcp_commands::mcp_restart,
            mcp_commands::mcp_import,
            mcp_commands::mcp_remove,
            mcp_content::mcp_resources,
            mcp_content::mcp_attach_resource,
            mcp_content::mcp_prompts,
            mcp_content::mcp_get_prompt,
            mcp_auth::mcp_sign_in,
            mcp_auth::mcp_sign_out,
            mcp_auth::mcp_client_secret_status,
            mcp_auth::set_mcp_client_secret,
            mcp_auth::delete_mcp_client_secret,
            jobs::list_jobs,
            jobs::create_job,
            jobs::update_job,
            jobs::set_job_enabled,
            jobs::delete_job,
            jobs::run_job_now,
            jobs::job_history,
            jobs::preview_schedule,
            jobs::job_approval_request,
            jobs::approve_job,
            jobs::revoke_job_approval,
            memory::list_memories,
            memory::search_memories,
            memory::add_memory,
            memory::update_memory,
            memory::set_memory_pinned,
            memory::delete_memory,
            skills::list_skills,
            skills::view_skill,
            skills::set_skill_enabled,
            skills::remove_skill,
            skills::list_skill_imports,
            skills::import_skills,
            skills::send_skill_message,
            skills::install::preview_skill_install,
            skills::install::confirm_skill_install,
            skills::install::cancel_skill_install,
            memory::list_contradictions,
            memory::resolve_contradiction,
            terminals::watch_terminal,
            terminals::write_terminal,
            window_commands::park_window,
            window_commands::unpark_window,
            window_commands::answer_close,
            update_commands::about,
            update_commands::check_for_update,
            update_commands::install_update,
            browser::browser_status,
            browser::open_agent_browser,
            browser::clear_browser_data,
            security::sandbox_status,
            security::chat_sandbox,
            security::set_chat_sandbox,
        ])
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
