//! Installing from the Skills page in two steps: [`preview_skill_install`] fetches (a folder or
//! archive on this computer, a git URL cloned, an archive URL downloaded through the network
//! guard), unpacks and validates the skill in a staging folder and shows its name,
//! description and permissions; [`confirm_skill_install`] moves it into place, and
//! [`cancel_skill_install`] (or quitting) leaves nothing behind.

use hearth_ipc_macros::command;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use ts_rs::TS;

use hearth_protocol::AppError;
use hearth_skills::{stage, Staged};
use serde::{Deserialize, Serialize};
use tauri::State;

use super::{blocking, SkillItem};
use crate::state::{AppState, CommandResult};

/// Installs previewed and not yet confirmed, by token.
#[derive(Default)]
pub struct PendingInstalls(Mutex<HashMap<String, Staged>>);

impl PendingInstalls {
    fn put(&self, staged: Staged) -> String {
        let token = uuid::Uuid::new_v4().simple().to_string();
        match self.0.lock() {
            Ok(mut pending) => pending.insert(token.clone(), staged),
            Err(poisoned) => poisoned.into_inner().insert(token.clone(), staged),
        };
        token
    }

    fn take(&self, token: &str) -> Option<Staged> {
        match self.0.lock() {
            Ok(mut pending) => pending.remove(token),
            Err(poisoned) => poisoned.into_inner().remove(token),
        }
    }
}

/// Where the page installs from.
#[derive(Debug, Clone, Copy, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "InstallKind")]
pub enum SourceKind {
    /// A folder, `.zip` or `.tar.gz` on this computer.
    Folder,
    /// A git repository URL.
    Git,
    /// An `http(s)` URL of a `.zip` or `.tar.gz`.
    Url,
}

/// What the user reviews before the skill lands.
#[derive(Debug, Clone, Serialize, TS)]
pub struct InstallPreview {
    pub token: String,
    pub skill: SkillItem,
}

#[command]
pub async fn preview_skill_install(
    state: State<'_, AppState>,
    pending: State<'_, PendingInstalls>,
    kind: SourceKind,
    location: String,
) -> CommandResult<InstallPreview> {
    let location = location.trim().to_string();
    let user_root = state.dir.skills();
    // Downloads and clones land in a hidden folder (skipped by the library), removed once the
    // skill is staged or the preview failed.
    let scratch = user_root.join(format!(".fetch-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&scratch).map_err(|e| AppError::FileSystem {
        message: format!("cannot create {}: {e}", scratch.display()),
    })?;
    let fetched = fetch(
        kind,
        location,
        scratch.clone(),
        state.settings().allow_local_hosts,
    )
    .await;
    let staged = match fetched {
        Ok(source) => blocking(move || stage(&user_root, &source, None, None)).await,
        Err(error) => Err(error),
    };
    let _ = std::fs::remove_dir_all(&scratch);
    let staged = staged?;
    let skill = SkillItem::from(&staged.skill);
    Ok(InstallPreview {
        token: pending.put(staged),
        skill,
    })
}

/// The skill's source on this computer: the folder or archive itself, a clone or a download in
/// `scratch`.
async fn fetch(
    kind: SourceKind,
    location: String,
    scratch: PathBuf,
    allow_local: Vec<String>,
) -> CommandResult<PathBuf> {
    match kind {
        SourceKind::Folder => Ok(PathBuf::from(&location)),
        SourceKind::Git => blocking(move || hearth_skills::clone_git(&location, &scratch)).await,
        SourceKind::Url => hearth_tools::download_skill_archive(&allow_local, &location, &scratch)
            .await
            .map_err(|e| AppError::Skill { message: e.message }),
    }
}

#[command]
pub async fn confirm_skill_install(
    pending: State<'_, PendingInstalls>,
    token: String,
) -> CommandResult<SkillItem> {
    let staged = pending.take(&token).ok_or_else(|| AppError::Skill {
        message: "this install is no longer waiting; preview it again".into(),
    })?;
    let skill = blocking(move || staged.commit()).await?;
    Ok(SkillItem::from(&skill))
}

#[command]
pub fn cancel_skill_install(pending: State<'_, PendingInstalls>, token: String) {
    // Dropping the staged skill removes its staging folder.
    drop(pending.take(&token));
}
