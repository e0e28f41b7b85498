//! Skills other agents keep on this machine (`~/.claude/skills`, `~/.agents/skills`, …): found
//! for the import view, and the chosen ones copied into `<data dir>/skills/` (staged and
//! validated like any install) and remembered as imported.

use crate::error::SkillError;
use crate::install::stage;
use crate::skill::{load_skill, Format, Skill, Source};
use crate::state::SkillState;
use serde::Serialize;
use std::path::{Path, PathBuf};
use ts_rs::TS;

/// The folders, under the home folder, where other agents keep skills.
pub const AGENT_FOLDERS: [(&str, &str); 5] = [
    ("Claude Code", ".claude/skills"),
    ("Agent Skills", ".agents/skills"),
    ("Codex", ".codex/skills"),
    ("Cursor", ".cursor/skills"),
    ("OpenCode", ".config/opencode/skills"),
];

/// A skill folder found in another agent's folder.
#[derive(Debug, Clone, Serialize, TS)]
pub struct ImportCandidate {
    /// The agent whose folder it is in.
    pub agent: String,
    pub dir: PathBuf,
    /// The skill's name (the folder's, when it does not load).
    pub name: String,
    pub description: Option<String>,
    pub format: Option<Format>,
    /// Why it cannot be imported as it is.
    pub broken: Option<String>,
    /// A skill of this name is installed already.
    pub installed: bool,
}

/// Every skill folder under the agents' folders of `home`; `installed` is checked against
/// `user_root` (`<data dir>/skills`).
pub fn import_candidates(home: &Path, user_root: &Path) -> Vec<ImportCandidate> {
    let mut found = Vec::new();
    for (agent, folder) in AGENT_FOLDERS {
        let Ok(entries) = std::fs::read_dir(home.join(folder)) else {
            continue;
        };
        let mut dirs: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir() && !hidden(p))
            .collect();
        dirs.sort();
        for dir in dirs {
            let folder_name = dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let candidate = match load_skill(&dir, Source::User) {
                Ok(skill) => ImportCandidate {
                    agent: agent.to_string(),
                    installed: user_root.join(&skill.name).exists(),
                    name: skill.name,
                    description: Some(skill.description),
                    format: Some(skill.format),
                    broken: None,
                    dir,
                },
                Err(error) => ImportCandidate {
                    agent: agent.to_string(),
                    installed: user_root.join(&folder_name).exists(),
                    name: folder_name,
                    description: None,
                    format: None,
                    broken: Some(error.to_string()),
                    dir,
                },
            };
            found.push(candidate);
        }
    }
    found
}

fn hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with('.'))
}

/// Copies the skill folder `dir` into `<data dir>/skills/` and records where it came from.
pub fn import_skill(data_dir: &Path, dir: &Path) -> Result<Skill, SkillError> {
    let staged = stage(&data_dir.join("skills"), dir, None, None)?;
    let mut skill = staged.commit()?;
    let origin = dir.display().to_string();
    SkillState::update(data_dir, |state| {
        state.imported.insert(skill.name.clone(), origin);
    })?;
    skill.source = Source::Imported;
    Ok(skill)
}
