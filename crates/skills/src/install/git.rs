//! A git repository cloned shallowly (`git clone --depth 1`, no terminal prompts) into a folder
//! named after it, without its `.git`, ready to install from.

use crate::error::SkillError;
use std::path::{Path, PathBuf};

/// Whether `source` names a git repository rather than a local path or an archive URL.
pub fn is_git_url(source: &str) -> bool {
    source.ends_with(".git")
        || source.starts_with("git@")
        || source.starts_with("git://")
        || source.starts_with("file://")
}

/// Clones `url` into `<parent>/<repository name>` and returns that folder.
pub fn clone_git(url: &str, parent: &Path) -> Result<PathBuf, SkillError> {
    let stem = url
        .trim_end_matches('/')
        .rsplit(['/', ':'])
        .next()
        .unwrap_or_default()
        .trim_end_matches(".git");
    let repo = parent.join(if stem.is_empty() || stem.starts_with('.') {
        "skill"
    } else {
        stem
    });
    let output = hearth_children::spawn_std(
        std::process::Command::new("git")
            .args(["clone", "--depth", "1", "--quiet", "--", url])
            .arg(&repo)
            .env("GIT_TERMINAL_PROMPT", "0")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped()),
    )
    .and_then(std::process::Child::wait_with_output)
    .map_err(|e| SkillError::Install(format!("cannot run git (is it installed?): {e}")))?;
    if !output.status.success() {
        return Err(SkillError::Install(format!(
            "git clone {url} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    std::fs::remove_dir_all(repo.join(".git")).map_err(|e| SkillError::io(&repo, e))?;
    Ok(repo)
}
