//! Build script: Tauri's code generation, with Hearth's commands declared in the app manifest so
//! each window's capability file must grant them explicitly (least privilege).

const COMMANDS: &[&str] = &[
    "list_sessions",
    "create_session",
    "rename_session",
    "set_session_pinned",
    "set_session_model",
    "set_session_workspace",
    "delete_session",
    "list_message_page",
    "search_messages",
    "send_message",
    "regenerate",
    "edit_message",
    "cancel_turn",
    "resolve_approval",
    "prepare_attachment",
    "attach_bytes",
    "get_settings",
    "save_settings",
    "get_key_status",
    "set_api_key",
    "delete_api_key",
    "test_connection",
    "detect_local_servers",
    "list_audit",
    "app_ready",
    "validate_rules",
    "list_jobs",
    "create_job",
    "update_job",
    "set_job_enabled",
    "delete_job",
    "run_job_now",
    "job_history",
    "preview_schedule",
    "job_approval_request",
    "approve_job",
    "revoke_job_approval",
    "list_memories",
    "search_memories",
    "add_memory",
    "update_memory",
    "set_memory_pinned",
    "delete_memory",
    "list_contradictions",
    "resolve_contradiction",
    "watch_terminal",
    "write_terminal",
    "park_window",
    "unpark_window",
    "startup_problem",
    "quit_app",
    "restart_app",
];

fn main() {
    let attributes = tauri_build::Attributes::new()
        .capabilities_path_pattern("./src-tauri/capabilities/**/*")
        .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    tauri_build::try_build(attributes).unwrap_or_else(|e| panic!("tauri build failed: {e}"));
}
