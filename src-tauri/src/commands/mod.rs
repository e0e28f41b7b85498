//! The Tauri commands: thin wrappers over the managed [`crate::state::AppState`]. Every one runs
//! off the main thread (`async fn`, or `#[tauri::command(async)]` on a plain one): Tauri runs a
//! plain command on the main thread, where a store query or a keychain read would hold the
//! window still.

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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::collections::BTreeSet;

    /// The command names in the `generate_handler![…]` of a source file.
    fn handler_names(source: &str) -> BTreeSet<String> {
        let handler = source.split("generate_handler![").nth(1).unwrap();
        let handler = handler.split(']').next().unwrap();
        handler
            .split(',')
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .map(|path| path.rsplit("::").next().unwrap().to_string())
            .collect()
    }

    /// The commands the app (`lib.rs`) and its start-up error screen register, the build script
    /// declares and the main window's capability grants: a command missing from either list is
    /// refused at run time ("not allowed"), which no test of the fake backend can see.
    #[test]
    fn every_registered_command_is_declared_and_granted() {
        let mut registered = handler_names(include_str!("../lib.rs"));
        let screen = handler_names(include_str!("../startup_problem.rs"));
        assert!(screen.contains("startup_problem"), "{screen:?}");
        registered.extend(screen);

        let build = include_str!("../../build.rs");
        let list = build.split("const COMMANDS").nth(1).unwrap();
        let list = list.split("];").next().unwrap();
        let declared: BTreeSet<String> = list
            .split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect();

        let capability: serde_json::Value =
            serde_json::from_str(include_str!("../../capabilities/main.json")).unwrap();
        let granted: BTreeSet<String> = capability["permissions"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p.as_str()?.strip_prefix("allow-"))
            .map(|name| name.replace('-', "_"))
            .collect();

        assert!(registered.len() > 40, "{registered:?}");
        assert_eq!(
            registered, declared,
            "lib.rs and startup_problem.rs against build.rs"
        );
        assert_eq!(declared, granted, "build.rs against capabilities/main.json");
    }

    /// Every `#[tauri::command]` in the app's sources is async or marked `(async)`.
    #[test]
    fn no_command_runs_on_the_main_thread() {
        let mut on_main_thread = Vec::new();
        let mut commands = 0;
        let mut folders =
            vec![std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src-tauri/src")];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    folders.push(path);
                    continue;
                }
                let source = std::fs::read_to_string(&path).unwrap();
                let lines: Vec<&str> = source.lines().map(str::trim).collect();
                for (at, attribute) in lines.iter().enumerate() {
                    if !attribute.starts_with("#[tauri::command") {
                        continue;
                    }
                    commands += 1;
                    let signature = lines[at..]
                        .iter()
                        .find(|line| line.contains("fn "))
                        .unwrap();
                    if !attribute.contains("(async)") && !signature.contains("async fn") {
                        on_main_thread.push(format!("{}: {signature}", path.display()));
                    }
                }
            }
        }
        assert!(commands > 100, "{commands} commands found");
        assert!(on_main_thread.is_empty(), "{on_main_thread:#?}");
    }
}
