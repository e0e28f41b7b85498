//! A git repository cloned shallowly (`git clone --depth 1`, no terminal prompts) into a folder
//! named after it, without its `.git`, ready to install from; git runs in the sandbox.

use crate::error::SkillError;
use std::path::{Path, PathBuf};

/// Whether `source` names a git repository rather than a local path or an archive URL.
pub fn is_git_url(source: &str) -> bool {
    source.ends_with(".git")
        || source.starts_with("git@")
        || source.starts_with("git://")
        || source.starts_with("file://")
}

/// The sandbox of a clone: the network on, writes only in `parent`; the home's secrets
/// unreadable except the SSH keys an `ssh` URL needs.
fn clone_sandbox(url: &str, parent: &Path) -> hearth_sandbox::Sandbox {
    let settings = hearth_sandbox::Settings {
        network: true,
        ..Default::default()
    };
    let over_ssh = url.starts_with("git@") || url.starts_with("ssh://");
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|_| !over_ssh);
    hearth_sandbox::Sandbox::new(&settings, home.as_deref(), None).writable(parent)
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
    let sandbox = clone_sandbox(url, parent);
    let mut git = sandbox.command("git");
    git.args(["clone", "--depth", "1", "--quiet", "--", url])
        .arg(&repo)
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let (child, _) =
        hearth_sandbox::spawn_std(&sandbox, git).map_err(|e| SkillError::Install(e.to_string()))?;
    let output = child
        .wait_with_output()
        .map_err(|e| SkillError::Install(format!("git clone {url} failed: {e}")))?;
    if !output.status.success() {
        return Err(SkillError::Install(format!(
            "git clone {url} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    std::fs::remove_dir_all(repo.join(".git")).map_err(|e| SkillError::io(&repo, e))?;
    Ok(repo)
}

#[cfg(test)]
mod tests {
    use super::clone_git;
    use std::process::Command;

    #[test]
    fn a_clone_runs_in_the_sandbox_into_its_folder() {
        let work = tempfile::tempdir().unwrap();
        let source = work.path().join("notes");
        std::fs::create_dir(&source).unwrap();
        std::fs::write(source.join("SKILL.md"), "---\nname: notes\n---\n").unwrap();
        let git = |args: &[&str]| {
            let status = Command::new("git")
                .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
                .args(args)
                .current_dir(&source)
                .status()
                .unwrap();
            assert!(status.success(), "git {args:?}");
        };
        git(&["init", "-q"]);
        git(&["add", "SKILL.md"]);
        git(&["commit", "-q", "-m", "skill"]);
        let into = work.path().join("download");
        std::fs::create_dir(&into).unwrap();
        let repo = clone_git(&format!("file://{}", source.display()), &into).unwrap();
        assert_eq!(repo, into.join("notes"));
        assert!(repo.join("SKILL.md").is_file() && !repo.join(".git").exists());
    }
}
