//! What the user chose about installed skills, kept in `<data dir>/skills-state.json`: the
//! skills switched off (they leave the catalogue and cannot be run) and the skills imported
//! from another agent's folder (listed with source "imported" and where they came from).

use crate::error::SkillError;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const FILE: &str = "skills-state.json";

/// The user's choices about skills.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SkillState {
    /// Names of the skills switched off.
    pub disabled: BTreeSet<String>,
    /// Imported skill name → the folder it was copied from.
    pub imported: BTreeMap<String, String>,
}

impl SkillState {
    /// Reads the state of `data_dir` (none yet: the default).
    pub fn load(data_dir: &Path) -> Result<SkillState, SkillError> {
        let path = data_dir.join(FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text)
                .map_err(|e| SkillError::invalid(FILE, None, format!("is not readable: {e}"))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(SkillState::default()),
            Err(e) => Err(SkillError::io(path, e)),
        }
    }

    /// Writes the state (atomically: a temporary file renamed into place).
    pub fn save(&self, data_dir: &Path) -> Result<(), SkillError> {
        std::fs::create_dir_all(data_dir).map_err(|e| SkillError::io(data_dir, e))?;
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| SkillError::invalid(FILE, None, e.to_string()))?;
        let (path, partial) = (data_dir.join(FILE), data_dir.join(format!(".{FILE}.new")));
        std::fs::write(&partial, text).map_err(|e| SkillError::io(&partial, e))?;
        std::fs::rename(&partial, &path).map_err(|e| SkillError::io(path, e))
    }

    /// Changes the state of `data_dir` with `change`, then saves it.
    pub fn update(data_dir: &Path, change: impl FnOnce(&mut SkillState)) -> Result<(), SkillError> {
        let mut state = SkillState::load(data_dir)?;
        change(&mut state);
        state.save(data_dir)
    }
}

/// Switches the skill `name` on or off.
pub fn set_enabled(data_dir: &Path, name: &str, enabled: bool) -> Result<(), SkillError> {
    SkillState::update(data_dir, |state| {
        if enabled {
            state.disabled.remove(name);
        } else {
            state.disabled.insert(name.to_string());
        }
    })
}

/// Forgets what the state says about `name` (the skill was removed).
pub fn forget(data_dir: &Path, name: &str) -> Result<(), SkillError> {
    SkillState::update(data_dir, |state| {
        state.disabled.remove(name);
        state.imported.remove(name);
    })
}
