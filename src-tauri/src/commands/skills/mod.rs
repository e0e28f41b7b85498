//! Skill commands for the Skills page and the composer's `/` picker: the library (broken skills
//! with their reason), one skill's instructions and files, the on/off switch, removal, other
//! agents' skill folders to import, installs with a preview (see [`install`]), and sending a
//! message as a skill run.

pub mod install;

use hearth_ipc_macros::command;
use std::path::PathBuf;
use std::sync::Arc;

use hearth_engine::{Engine, SkillRun};
use hearth_policy::{Declaration, SkillPermission};
use hearth_protocol::{AppError, ContentPart, EngineEvent, SkillDialect};
use hearth_skills::{Format, ImportCandidate, Library, Skill, SkillError, SkillRoots, Source};
use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, State};
use ts_rs::TS;

use crate::state::{AppState, CommandResult};

/// A skill as the page lists it.
#[derive(Debug, Clone, Serialize, TS)]
pub struct SkillItem {
    pub name: String,
    pub description: String,
    pub format: Format,
    pub source: Source,
    pub dialect: SkillDialect,
    pub enabled: bool,
    pub version: Option<String>,
    pub dir: String,
    pub declares: Declares,
    /// Badges of a `permissions` declaration.
    pub permissions: Vec<PermissionBadge>,
    /// The tools an `allowed-tools` declaration lists.
    pub allowed_tools: Vec<String>,
    /// The tools `tools.json` declares.
    pub tools: Vec<String>,
}

/// What a skill declares it may use.
#[derive(Debug, Clone, Copy, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Declares {
    /// Nothing: the session's ordinary policy applies.
    None,
    Permissions,
    AllowedTools,
}

/// The badge of a manifest permission.
#[derive(Debug, Clone, Copy, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum PermissionBadge {
    Internet,
    Files,
    Notifications,
    Schedules,
}

fn badge(permission: SkillPermission) -> PermissionBadge {
    match permission {
        SkillPermission::Http => PermissionBadge::Internet,
        SkillPermission::File => PermissionBadge::Files,
        SkillPermission::Notification => PermissionBadge::Notifications,
        SkillPermission::Cron => PermissionBadge::Schedules,
    }
}

impl From<&Skill> for SkillItem {
    fn from(skill: &Skill) -> SkillItem {
        let (declares, permissions, allowed_tools) = match &skill.grant.declaration {
            Declaration::None => (Declares::None, Vec::new(), Vec::new()),
            Declaration::Permissions(list) => (
                Declares::Permissions,
                list.iter().copied().map(badge).collect(),
                Vec::new(),
            ),
            Declaration::AllowedTools(tools) => (Declares::AllowedTools, Vec::new(), tools.clone()),
        };
        SkillItem {
            name: skill.name.clone(),
            description: skill.description.clone(),
            format: skill.format,
            source: skill.source,
            dialect: skill.dialect,
            enabled: skill.enabled,
            version: skill.version.clone(),
            dir: skill.dir.display().to_string(),
            declares,
            permissions,
            allowed_tools,
            tools: skill.tools.iter().map(|t| t.name.clone()).collect(),
        }
    }
}

/// A skill folder that did not load.
#[derive(Debug, Clone, Serialize, TS)]
pub struct BrokenItem {
    pub folder: String,
    pub dir: String,
    pub source: Source,
    pub reason: String,
}

/// The Skills page's list.
#[derive(Debug, Clone, Serialize, TS)]
pub struct SkillsList {
    pub skills: Vec<SkillItem>,
    pub broken: Vec<BrokenItem>,
    /// The workspace's `.agents/skills/` when it is there but not trusted yet.
    pub untrusted_project: Option<String>,
}

/// One skill's page: its instructions as written and its files.
#[derive(Debug, Clone, Serialize, TS)]
pub struct SkillDetail {
    pub skill: SkillItem,
    pub instructions: String,
    pub files: Vec<String>,
}

/// A skills error as the UI shows it.
pub(crate) fn skill_error(error: SkillError) -> AppError {
    AppError::Skill {
        message: error.to_string(),
    }
}

/// Runs blocking skill work (file system, git, extraction) off the async threads.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, SkillError> + Send + 'static,
) -> CommandResult<T> {
    tauri::async_runtime::spawn_blocking(work)
        .await
        .map_err(AppError::internal)?
        .map_err(skill_error)
}

impl AppState {
    /// The data dir and the default workspace (whose trusted `.agents/skills/` counts).
    fn skill_roots(&self) -> SkillRoots {
        SkillRoots {
            data_dir: self.dir.root().to_path_buf(),
            workspace: Some(self.dir.workspace()),
        }
    }

    async fn library(&self) -> CommandResult<Library> {
        let roots = self.skill_roots();
        blocking(move || Library::load(&roots)).await
    }

    /// An engine for a run of `run`: its dialect's tools, only what it declares, asking in the
    /// window under the settings' security profile like any chat.
    pub async fn skill_engine(&self, run: SkillRun) -> CommandResult<Engine> {
        let settings = self.settings();
        let builder = self.builder.clone();
        let approver = self.approver.clone();
        let (choice, runner) = tauri::async_runtime::spawn_blocking(move || {
            let choice = builder.model(&settings, None, None)?;
            let registry =
                builder.skill_registry(&run, &settings, hearth_engine::attended(&settings));
            let runner = builder
                .tool_runner(
                    Arc::new(registry),
                    &settings,
                    settings.security_profile,
                    approver,
                )
                .with_skill_grant(run.skill.grant.clone());
            Ok::<_, AppError>((choice, runner))
        })
        .await
        .map_err(AppError::internal)??;
        Ok(self
            .builder
            .engine(&self.settings(), choice, Arc::new(runner)))
    }
}

#[command]
pub async fn list_skills(state: State<'_, AppState>) -> CommandResult<SkillsList> {
    let library = state.library().await?;
    Ok(SkillsList {
        skills: library.skills.iter().map(SkillItem::from).collect(),
        broken: library
            .broken
            .iter()
            .map(|b| BrokenItem {
                folder: b.folder.clone(),
                dir: b.dir.display().to_string(),
                source: b.source,
                reason: b.reason.clone(),
            })
            .collect(),
        untrusted_project: library.untrusted_project.map(|p| p.display().to_string()),
    })
}

#[command]
pub async fn view_skill(state: State<'_, AppState>, name: String) -> CommandResult<SkillDetail> {
    let roots = state.skill_roots();
    blocking(move || {
        let library = Library::load(&roots)?;
        let skill = library.get(&name)?;
        let path = skill.dir.join(skill.instructions);
        let instructions =
            std::fs::read_to_string(&path).map_err(|source| SkillError::Io { path, source })?;
        Ok(SkillDetail {
            skill: SkillItem::from(skill),
            instructions,
            files: hearth_skills::skill_files(&skill.dir)?,
        })
    })
    .await
}

#[command]
pub async fn set_skill_enabled(
    state: State<'_, AppState>,
    name: String,
    enabled: bool,
) -> CommandResult<()> {
    let roots = state.skill_roots();
    blocking(move || {
        Library::load(&roots)?.get(&name)?;
        hearth_skills::set_enabled(&roots.data_dir, &name, enabled)
    })
    .await
}

/// Deletes a user or imported skill's folder (the page's undo window has passed by then).
#[command]
pub async fn remove_skill(state: State<'_, AppState>, name: String) -> CommandResult<()> {
    let roots = state.skill_roots();
    blocking(move || {
        let library = Library::load(&roots)?;
        let skill = library.get(&name)?;
        if skill.source == Source::Project {
            return Err(SkillError::Install(format!(
                "`{name}` is a project skill in {}; remove it there",
                skill.dir.display()
            )));
        }
        std::fs::remove_dir_all(&skill.dir).map_err(|source| SkillError::Io {
            path: skill.dir.clone(),
            source,
        })?;
        hearth_skills::forget(&roots.data_dir, &name)
    })
    .await
}

/// The home folder: `HOME` (`USERPROFILE` on Windows).
fn home_folder() -> Option<PathBuf> {
    ["HOME", "USERPROFILE"]
        .into_iter()
        .find_map(std::env::var_os)
        .map(PathBuf::from)
}

/// Skill folders other agents keep on this machine, for the import view.
#[command]
pub async fn list_skill_imports(state: State<'_, AppState>) -> CommandResult<Vec<ImportCandidate>> {
    let user_root = state.dir.skills();
    let Some(home) = home_folder() else {
        return Ok(Vec::new());
    };
    blocking(move || Ok(hearth_skills::import_candidates(&home, &user_root))).await
}

/// Copies the chosen folders in (each staged and validated like an install); stops at the
/// first that fails, keeping those before it.
#[command]
pub async fn import_skills(
    state: State<'_, AppState>,
    dirs: Vec<String>,
) -> CommandResult<Vec<SkillItem>> {
    let data_dir = state.dir.root().to_path_buf();
    blocking(move || {
        dirs.iter()
            .map(|dir| hearth_skills::import_skill(&data_dir, std::path::Path::new(dir)))
            .map(|imported| imported.map(|skill| SkillItem::from(&skill)))
            .collect()
    })
    .await
}

/// Sends a message as a run of the skill `skill` (the composer's `/` picker): the message keeps
/// what the user typed with the skill as a part beside it (the model reads its instructions
/// there), its dialect's tools are offered, and only what it declares.
#[command]
pub async fn send_skill_message(
    app: AppHandle,
    state: State<'_, AppState>,
    session_id: String,
    skill: String,
    content: Vec<ContentPart>,
    on_event: Channel<EngineEvent>,
) -> CommandResult<()> {
    let run = load_run(&state, &session_id, skill).await?;
    let content = run.content(content);
    super::turns::send_turn(&app, &state, &session_id, content, Some(run), on_event).await
}

/// The enabled skill `name` as the session `session_id` sees it (its workspace's skills too).
pub(crate) async fn load_run(
    state: &AppState,
    session_id: &str,
    name: String,
) -> CommandResult<SkillRun> {
    let workspace = crate::commands::attachments::workspace(state, session_id).await?;
    let data_dir = state.dir.root().to_path_buf();
    blocking(move || SkillRun::load(&data_dir, &workspace, &name)).await
}
