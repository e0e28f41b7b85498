//! Installing a skill from a local folder, a `.zip` or a `.tar.gz` file into
//! `<data dir>/skills/<name>/`: everything lands in a staging folder first (archives extracted
//! safely: no absolute or `..` entries, no links, file-count and size caps), the skill is
//! validated there, and only then moved into place; a failed install leaves nothing behind.

mod extract;
mod git;

pub use git::{clone_git, is_git_url};

use crate::error::{shorten, SkillError};
use crate::skill::{load_skill, Skill, Source};
use std::path::{Component, Path, PathBuf};

/// The most files and folders one skill may hold together.
pub const MAX_FILES: usize = 10_000;
/// The most bytes one skill's files may hold together.
pub const MAX_BYTES: u64 = 256 * 1024 * 1024;

/// Files and folders made and bytes written so far, checked against the caps (an empty
/// folder costs a directory block on disk, so folders count like files).
#[derive(Debug, Default)]
pub(crate) struct Budget {
    entries: usize,
    bytes: u64,
}

impl Budget {
    pub(crate) fn add_entry(&mut self) -> Result<(), SkillError> {
        self.entries += 1;
        if self.entries > MAX_FILES {
            return Err(SkillError::Install(format!(
                "the skill has more than {MAX_FILES} files and folders"
            )));
        }
        Ok(())
    }

    /// Bytes still allowed.
    pub(crate) fn room(&self) -> u64 {
        MAX_BYTES - self.bytes
    }

    pub(crate) fn add_bytes(&mut self, bytes: u64) -> Result<(), SkillError> {
        self.bytes += bytes;
        if self.bytes > MAX_BYTES {
            return Err(SkillError::Install(format!(
                "the skill's files hold more than {} MiB",
                MAX_BYTES / 1024 / 1024
            )));
        }
        Ok(())
    }
}

/// A relative path with only plain components, or `None` (absolute, `..`, drive prefixes).
pub(crate) fn plain_relative(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!out.as_os_str().is_empty()).then_some(out)
}

/// Removes the staging folder however the install ends.
struct Staging(PathBuf);

impl Drop for Staging {
    fn drop(&mut self) {
        // Best effort: a leftover staging folder is hidden (dot name) and skipped by the library.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A skill unpacked and validated in its staging folder, not installed yet: show `skill`
/// (name, description, declaration) to the user, then [`Staged::commit`] it. Dropping it
/// removes everything.
pub struct Staged {
    pub skill: Skill,
    target: PathBuf,
    _staging: Staging,
}

impl Staged {
    /// Moves the skill into place.
    pub fn commit(self) -> Result<Skill, SkillError> {
        if self.target.exists() {
            return Err(SkillError::Install(format!(
                "a skill folder `{}` is already installed; remove it first",
                self.target
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            )));
        }
        std::fs::rename(&self.skill.dir, &self.target)
            .map_err(|e| SkillError::io(&self.target, e))?;
        load_skill(&self.target, Source::User)
    }
}

/// Installs the skill at `source` (see [`stage`]) at once.
pub fn install(
    user_root: &Path,
    source: &Path,
    name: Option<&str>,
    subdirectory: Option<&str>,
) -> Result<Skill, SkillError> {
    stage(user_root, source, name, subdirectory)?.commit()
}

/// Unpacks the skill at `source` (a folder, `.zip`, `.tar.gz` or `.tgz`) into a staging
/// folder of `user_root` (`<data dir>/skills`) and validates it. `subdirectory` picks a folder
/// inside the source; `name` names the installed folder (default: the source folder's, the
/// archive's single top folder's, or the archive's file name).
pub fn stage(
    user_root: &Path,
    source: &Path,
    name: Option<&str>,
    subdirectory: Option<&str>,
) -> Result<Staged, SkillError> {
    std::fs::create_dir_all(user_root).map_err(|e| SkillError::io(user_root, e))?;
    let staging = Staging(user_root.join(format!(
        ".install-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default()
    )));
    let unpacked = staging.0.join("source");
    std::fs::create_dir_all(&unpacked).map_err(|e| SkillError::io(&unpacked, e))?;
    let source_name = source
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut default_name = source_name.clone();
    if source.is_dir() {
        extract::copy_folder(source, &unpacked)?;
    } else if source_name.ends_with(".zip") {
        extract::unzip(source, &unpacked)?;
        default_name = source_name.trim_end_matches(".zip").to_string();
    } else if source_name.ends_with(".tar.gz") || source_name.ends_with(".tgz") {
        extract::untar_gz(source, &unpacked)?;
        default_name = source_name
            .trim_end_matches(".tar.gz")
            .trim_end_matches(".tgz")
            .to_string();
    } else {
        return Err(SkillError::Install(format!(
            "{}: not a folder, .zip, .tar.gz or .tgz file",
            shorten(&source.display().to_string())
        )));
    }
    let mut root = unpacked.clone();
    if let Some(sub) = subdirectory {
        let sub = plain_relative(Path::new(sub)).ok_or_else(|| {
            SkillError::Install(format!(
                "subdirectory `{sub}` must be a relative path inside the source"
            ))
        })?;
        root = root.join(&sub);
        default_name = sub
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or(default_name);
        if !root.is_dir() {
            return Err(SkillError::Install(format!(
                "the source has no folder `{}`",
                shorten(&sub.display().to_string())
            )));
        }
    } else if let Some(single) = single_wrapping_folder(&root)? {
        default_name = single
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or(default_name);
        root = single;
    }
    let folder = name.map(str::to_string).unwrap_or(default_name);
    if plain_relative(Path::new(&folder)).is_none_or(|p| p.components().count() != 1)
        || folder.starts_with('.')
    {
        return Err(SkillError::Install(format!(
            "`{}` cannot name a skill folder",
            shorten(&folder)
        )));
    }
    let ready = staging.0.join("ready").join(&folder);
    std::fs::create_dir_all(staging.0.join("ready")).map_err(|e| SkillError::io(&ready, e))?;
    std::fs::rename(&root, &ready).map_err(|e| SkillError::io(&root, e))?;
    let skill = load_skill(&ready, Source::User)?;
    let staged = Staged {
        skill,
        target: user_root.join(&folder),
        _staging: staging,
    };
    if staged.target.exists() {
        return Err(SkillError::Install(format!(
            "a skill folder `{folder}` is already installed; remove it first"
        )));
    }
    Ok(staged)
}

/// The only entry of `dir` when it is a folder without skill files of its own around it.
fn single_wrapping_folder(dir: &Path) -> Result<Option<PathBuf>, SkillError> {
    if dir.join("SKILL.md").is_file() || dir.join("manifest.json").is_file() {
        return Ok(None);
    }
    let entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| SkillError::io(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    match entries.as_slice() {
        [only] if only.is_dir() => Ok(Some(only.clone())),
        _ => Ok(None),
    }
}
