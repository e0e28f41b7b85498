//! The Tauri commands: thin wrappers over the managed [`crate::state::AppState`], each declared
//! with `#[command]` (`hearth-ipc-macros`) and listed in [`app_commands`]. `#[command]` runs every
//! one off the main thread (Tauri runs a plain command on the main thread, where a store query
//! or a keychain read would hold the window still) and records its signature for the UI's
//! generated contract (`ui/src/lib/bindings/commands.ts`, see `crate::contract`).

pub mod artifacts;
pub mod attachments;
pub mod browser;
pub mod channels;
pub mod jobs;
pub mod knowledge;
pub mod local_models;
pub mod mcp;
pub mod mcp_auth;
pub mod mcp_content;
pub mod media;
pub mod memory;
pub mod model_downloads;
pub mod planning;
pub mod problems;
pub mod rules;
pub mod security;
pub mod sessions;
pub mod settings;
pub mod skills;
pub mod terminals;
pub mod turns;
pub mod updates;
pub mod window;

/// Every command of the app's window, in one list: `lib.rs` registers it
/// (`app_commands!(tauri::generate_handler)`), the contract test exports it
/// (`app_commands!(hearth_ipc_macros::contract)`) and `build.rs` reads the names from this
/// source (the last segment of each path) to declare them in the app manifest and gather their
/// `allow-<name>` permissions in the `app-commands` set `capabilities/main.json` grants. A new
/// command goes here only.
macro_rules! app_commands {
    ($($apply:ident)::+) => {
        $($apply)::+![
            crate::commands::sessions::list_sessions,
            crate::commands::sessions::create_session,
            crate::commands::sessions::rename_session,
            crate::commands::sessions::set_session_pinned,
            crate::commands::sessions::set_session_model,
            crate::commands::sessions::set_session_workspace,
            crate::commands::sessions::delete_session,
            crate::commands::sessions::list_message_page,
            crate::commands::sessions::search_messages,
            crate::commands::turns::send_message,
            crate::commands::turns::regenerate,
            crate::commands::turns::edit_message,
            crate::commands::turns::cancel_turn,
            crate::commands::turns::cancel_subagent,
            crate::commands::turns::list_background_tasks,
            crate::commands::turns::resolve_approval,
            crate::commands::planning::todo_list,
            crate::commands::planning::answer_question,
            crate::commands::planning::answer_form,
            crate::commands::attachments::prepare_attachment,
            crate::commands::attachments::attach_bytes,
            crate::commands::attachments::paste_clipboard_image,
            crate::commands::media::read_workspace_media,
            crate::commands::channels::channel_statuses,
            crate::commands::channels::channel_token_status,
            crate::commands::channels::set_channel_token,
            crate::commands::channels::delete_channel_token,
            crate::commands::channels::test_channel,
            crate::commands::artifacts::artifact_view,
            crate::commands::artifacts::save_artifact,
            crate::commands::knowledge::knowledge_status,
            crate::commands::local_models::local_models,
            crate::commands::local_models::import_local_model,
            crate::commands::local_models::remove_local_model,
            crate::commands::model_downloads::model_downloads,
            crate::commands::model_downloads::start_model_download,
            crate::commands::model_downloads::pause_model_download,
            crate::commands::model_downloads::resume_model_download,
            crate::commands::model_downloads::cancel_model_download,
            crate::commands::knowledge::knowledge_rebuild,
            crate::commands::knowledge::knowledge_search,
            crate::commands::knowledge::open_knowledge_file,
            crate::commands::settings::get_settings,
            crate::commands::settings::save_settings,
            crate::commands::settings::get_key_status,
            crate::commands::settings::set_api_key,
            crate::commands::settings::delete_api_key,
            crate::commands::settings::test_connection,
            crate::commands::settings::detect_local_servers,
            crate::commands::settings::list_audit,
            crate::commands::settings::app_ready,
            crate::commands::problems::log_ui_error,
            crate::commands::problems::open_data_folder,
            crate::commands::rules::validate_rules,
            crate::commands::mcp::mcp_servers,
            crate::commands::mcp::mcp_restart,
            crate::commands::mcp::mcp_import,
            crate::commands::mcp::mcp_remove,
            crate::commands::mcp_content::mcp_resources,
            crate::commands::mcp_content::mcp_attach_resource,
            crate::commands::mcp_content::mcp_prompts,
            crate::commands::mcp_content::mcp_get_prompt,
            crate::commands::mcp_auth::mcp_sign_in,
            crate::commands::mcp_auth::mcp_sign_out,
            crate::commands::mcp_auth::mcp_client_secret_status,
            crate::commands::mcp_auth::set_mcp_client_secret,
            crate::commands::mcp_auth::delete_mcp_client_secret,
            crate::commands::jobs::list_jobs,
            crate::commands::jobs::create_job,
            crate::commands::jobs::update_job,
            crate::commands::jobs::set_job_enabled,
            crate::commands::jobs::delete_job,
            crate::commands::jobs::run_job_now,
            crate::commands::jobs::job_history,
            crate::commands::jobs::preview_schedule,
            crate::commands::jobs::job_approval_request,
            crate::commands::jobs::approve_job,
            crate::commands::jobs::revoke_job_approval,
            crate::commands::memory::list_memories,
            crate::commands::memory::search_memories,
            crate::commands::memory::add_memory,
            crate::commands::memory::update_memory,
            crate::commands::memory::set_memory_pinned,
            crate::commands::memory::delete_memory,
            crate::commands::skills::list_skills,
            crate::commands::skills::view_skill,
            crate::commands::skills::set_skill_enabled,
            crate::commands::skills::remove_skill,
            crate::commands::skills::list_skill_imports,
            crate::commands::skills::import_skills,
            crate::commands::skills::send_skill_message,
            crate::commands::skills::install::preview_skill_install,
            crate::commands::skills::install::confirm_skill_install,
            crate::commands::skills::install::cancel_skill_install,
            crate::commands::memory::list_contradictions,
            crate::commands::memory::resolve_contradiction,
            crate::commands::terminals::watch_terminal,
            crate::commands::terminals::write_terminal,
            crate::commands::window::park_window,
            crate::commands::window::unpark_window,
            crate::commands::window::answer_close,
            crate::commands::updates::about,
            crate::commands::updates::check_for_update,
            crate::commands::updates::install_update,
            crate::commands::browser::browser_status,
            crate::commands::browser::open_agent_browser,
            crate::commands::browser::clear_browser_data,
            crate::commands::security::sandbox_status,
            crate::commands::security::chat_sandbox,
            crate::commands::security::set_chat_sandbox,
        ]
    };
}
pub(crate) use app_commands;

/// The signatures of every command the UI can call: the app's and the start-up error screen's
/// (whose `open_data_folder` has the same name and arguments as the app's).
#[cfg(test)]
pub fn every_command() -> Vec<crate::contract::Command> {
    let mut commands = app_commands!(hearth_ipc_macros::contract);
    for command in crate::startup_problem::screen_commands!(hearth_ipc_macros::contract) {
        if !commands.iter().any(|c| c.name == command.name) {
            commands.push(command);
        }
    }
    commands
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::collections::BTreeSet;

    /// The commands the app and its start-up error screen register are the ones the build script
    /// read from their lists and declared, and the main window's capability grants the set of
    /// them: a command missing from either is refused at run time ("not allowed"), which no test
    /// of the fake backend can see.
    #[test]
    fn every_registered_command_is_declared_and_granted() {
        let registered: BTreeSet<String> = super::every_command()
            .iter()
            .map(|command| command.name.to_string())
            .collect();
        assert!(registered.contains("startup_problem"), "{registered:?}");
        assert!(registered.len() > 100, "{registered:?}");

        let declared: BTreeSet<String> = env!("HEARTH_DECLARED_COMMANDS")
            .split(',')
            .map(str::to_string)
            .collect();
        assert_eq!(registered, declared, "the command lists against build.rs");

        let capability: serde_json::Value =
            serde_json::from_str(include_str!("../../capabilities/main.json")).unwrap();
        let granted: Vec<&str> = capability["permissions"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(serde_json::Value::as_str)
            .collect();
        assert!(granted.contains(&"app-commands"), "{granted:?}");
    }

    /// Every command of the app's sources is declared with `#[command]` (which runs it off the
    /// main thread and records it in the contract), none with `#[tauri::command]` directly, and
    /// each is in a command list.
    #[test]
    fn every_command_goes_through_the_contract() {
        let mut direct = Vec::new();
        let mut marked = 0;
        for (path, source) in crate::contract::sources() {
            for line in source.lines().map(str::trim) {
                if line.starts_with("#[tauri::command") {
                    direct.push(format!("{}: {line}", path.display()));
                }
                marked += usize::from(line == "#[command]");
            }
        }
        assert!(direct.is_empty(), "{direct:#?}");
        // The start-up screen's `open_data_folder` shares its name with the app's.
        assert_eq!(marked, super::every_command().len() + 1);
    }
}
