//! Which project folders the user trusts to supply skills (`<workspace>/.agents/skills/`): a
//! JSON list of folders in `<data dir>/trusted-skill-folders.json`.

use crate::error::SkillError;
use std::path::{Path, PathBuf};

const FILE: &str = "trusted-skill-folders.json";

fn trusted(data_dir: &Path) -> Result<Vec<PathBuf>, SkillError> {
    let path = data_dir.join(FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text)
            .map_err(|e| SkillError::invalid(FILE, None, format!("is not a list of folders: {e}"))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(SkillError::io(path, e)),
    }
}

fn canonical(folder: &Path) -> Result<PathBuf, SkillError> {
    std::fs::canonicalize(folder).map_err(|e| SkillError::io(folder, e))
}

/// Whether the user trusts `workspace`'s project skills.
pub fn is_trusted(data_dir: &Path, workspace: &Path) -> Result<bool, SkillError> {
    let Ok(workspace) = canonical(workspace) else {
        return Ok(false);
    };
    Ok(trusted(data_dir)?.contains(&workspace))
}

/// Records that the user trusts `workspace`'s project skills.
pub fn trust_folder(data_dir: &Path, workspace: &Path) -> Result<(), SkillError> {
    let workspace = canonical(workspace)?;
    let mut folders = trusted(data_dir)?;
    if !folders.contains(&workspace) {
        folders.push(workspace);
    }
    std::fs::create_dir_all(data_dir).map_err(|e| SkillError::io(data_dir, e))?;
    let text = serde_json::to_string_pretty(&folders)
        .map_err(|e| SkillError::invalid(FILE, None, e.to_string()))?;
    let path = data_dir.join(FILE);
    std::fs::write(&path, text).map_err(|e| SkillError::io(path, e))
}
