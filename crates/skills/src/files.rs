//! Paths inside one skill's folder: relative ones only, checked after resolving `..` and
//! symlinks so that no spelling leads outside; and the listing of a skill's files.

use crate::error::SkillError;
use std::path::{Component, Path, PathBuf};

/// At most this many files are listed for one skill.
const MAX_LISTED: usize = 500;

/// The existing file or folder `relative` inside `dir` (which must be canonical), with
/// symlinks resolved; `Outside` when any spelling of it leads out.
pub fn resolve_inside(dir: &Path, relative: &str) -> Result<PathBuf, SkillError> {
    let joined = checked_join(dir, relative)?;
    let resolved = std::fs::canonicalize(&joined).map_err(|e| SkillError::io(&joined, e))?;
    if !resolved.starts_with(dir) {
        return Err(SkillError::Outside(relative.to_string()));
    }
    Ok(resolved)
}

/// Where a file `relative` inside `dir` is to be written: its parent folders are created, and
/// the parent (symlinks resolved) must still be inside `dir`; an existing symlink at the
/// path itself is refused.
pub fn resolve_new_inside(dir: &Path, relative: &str) -> Result<PathBuf, SkillError> {
    let joined = checked_join(dir, relative)?;
    let (Some(parent), Some(file)) = (joined.parent(), joined.file_name()) else {
        return Err(SkillError::Outside(relative.to_string()));
    };
    std::fs::create_dir_all(parent).map_err(|e| SkillError::io(parent, e))?;
    let parent = std::fs::canonicalize(parent).map_err(|e| SkillError::io(parent, e))?;
    if !parent.starts_with(dir) {
        return Err(SkillError::Outside(relative.to_string()));
    }
    let target = parent.join(file);
    if target.symlink_metadata().is_ok_and(|m| m.is_symlink()) {
        return Err(SkillError::Outside(relative.to_string()));
    }
    Ok(target)
}

/// `dir` joined with `relative`, refusing empty, absolute and `..` paths.
fn checked_join(dir: &Path, relative: &str) -> Result<PathBuf, SkillError> {
    let path = Path::new(relative);
    let plain = path
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if relative.trim().is_empty() || !plain {
        return Err(SkillError::Outside(relative.to_string()));
    }
    Ok(dir.join(path))
}

/// The skill's files, relative to `dir`, sorted (symlinks are not followed; at most 500).
pub fn skill_files(dir: &Path) -> Result<Vec<String>, SkillError> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let entries = std::fs::read_dir(&folder).map_err(|e| SkillError::io(&folder, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| SkillError::io(&folder, e))?;
            let kind = entry
                .file_type()
                .map_err(|e| SkillError::io(entry.path(), e))?;
            let path = entry.path();
            if kind.is_dir() {
                pending.push(path);
            } else if files.len() < MAX_LISTED {
                if let Ok(relative) = path.strip_prefix(dir) {
                    files.push(relative.to_string_lossy().into_owned());
                }
            }
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn paths_stay_inside_the_folder() {
        let root = tempfile::tempdir().unwrap();
        let dir = std::fs::canonicalize(root.path()).unwrap().join("skill");
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        std::fs::write(dir.join("scripts/run.sh"), "echo").unwrap();
        std::fs::write(root.path().join("secret"), "x").unwrap();
        assert!(resolve_inside(&dir, "scripts/run.sh").is_ok());
        for bad in ["../secret", "/etc/passwd", "", "scripts/../../secret"] {
            assert!(
                matches!(resolve_inside(&dir, bad), Err(SkillError::Outside(_))),
                "{bad}"
            );
        }
        std::os::unix::fs::symlink(root.path(), dir.join("out")).unwrap();
        assert!(matches!(
            resolve_inside(&dir, "out/secret"),
            Err(SkillError::Outside(_))
        ));
        assert!(matches!(
            resolve_new_inside(&dir, "out/new.txt"),
            Err(SkillError::Outside(_))
        ));
        assert_eq!(
            resolve_new_inside(&dir, "references/a.md").unwrap(),
            dir.join("references/a.md")
        );
        assert_eq!(skill_files(&dir).unwrap(), ["out", "scripts/run.sh"]);
    }
}
