//! Unpacking into the staging folder: a folder copied (links refused), a zip or gzipped tar
//! extracted entry by entry, each path checked to be plain and relative, links refused, and
//! every file and folder counted and the bytes capped as they are written (declared sizes are
//! not trusted). A failure names the entry inside the skill, cut short, never the staging path.

use super::{plain_relative, Budget, MAX_FILES};
use crate::error::{shorten, SkillError};
use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;

fn refused(message: String) -> SkillError {
    SkillError::Install(message)
}

/// Makes the folder `relative` under `to` (with its parents), counted against the budget.
fn make_folder(to: &Path, relative: &Path, budget: &mut Budget) -> Result<(), SkillError> {
    budget.add_entry()?;
    std::fs::create_dir_all(to.join(relative)).map_err(|e| SkillError::unpack(relative, e))
}

/// Copies `reader` to a new file `relative` under `to`, at most the bytes the budget has room
/// for; `mode` keeps an executable bit (Unix).
fn write_capped(
    reader: impl Read,
    to: &Path,
    relative: &Path,
    mode: Option<u32>,
    budget: &mut Budget,
) -> Result<(), SkillError> {
    budget.add_entry()?;
    let target = to.join(relative);
    let failed = |e| SkillError::unpack(relative, e);
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).map_err(failed)?;
    }
    let mut file = File::create_new(&target).map_err(failed)?;
    let room = budget.room();
    let copied = std::io::copy(&mut reader.take(room + 1), &mut file).map_err(failed)?;
    budget.add_bytes(copied)?;
    file.flush().map_err(failed)?;
    #[cfg(unix)]
    if mode.is_some_and(|m| m & 0o111 != 0) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))
            .map_err(failed)?;
    }
    #[cfg(not(unix))]
    let _ = mode;
    Ok(())
}

/// A file's Unix mode bits, where the platform has them.
fn mode_of(meta: &std::fs::Metadata) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(meta.permissions().mode())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

/// Copies the folder `from` into `to`; a symlink anywhere is refused.
pub(super) fn copy_folder(from: &Path, to: &Path) -> Result<(), SkillError> {
    copy_below(from, to, Path::new(""), &mut Budget::default())
}

/// Copies `from`'s folder `relative` into `to`'s.
fn copy_below(
    from: &Path,
    to: &Path,
    relative: &Path,
    budget: &mut Budget,
) -> Result<(), SkillError> {
    let folder = from.join(relative);
    for entry in std::fs::read_dir(&folder).map_err(|e| SkillError::io(&folder, e))? {
        let entry = entry.map_err(|e| SkillError::io(&folder, e))?;
        let inside = relative.join(entry.file_name());
        let kind = entry
            .file_type()
            .map_err(|e| SkillError::io(entry.path(), e))?;
        if kind.is_symlink() {
            return Err(refused(format!(
                "{} is a symbolic link; skills are installed without links",
                shorten(&entry.path().display().to_string())
            )));
        } else if kind.is_dir() {
            make_folder(to, &inside, budget)?;
            copy_below(from, to, &inside, budget)?;
        } else if kind.is_file() {
            let file = File::open(entry.path()).map_err(|e| SkillError::io(entry.path(), e))?;
            let meta = file
                .metadata()
                .map_err(|e| SkillError::io(entry.path(), e))?;
            write_capped(file, to, &inside, mode_of(&meta), budget)?;
        }
    }
    Ok(())
}

/// Extracts the zip file `archive` into `to`.
pub(super) fn unzip(archive: &Path, to: &Path) -> Result<(), SkillError> {
    let file = File::open(archive).map_err(|e| SkillError::io(archive, e))?;
    let mut zip = zip::ZipArchive::new(file).map_err(|e| {
        refused(format!(
            "{}: not a readable zip file: {}",
            shorten(&archive.display().to_string()),
            shorten(&e.to_string())
        ))
    })?;
    if zip.len() > MAX_FILES {
        return Err(refused(format!(
            "the archive has {} entries, more than {MAX_FILES}",
            zip.len()
        )));
    }
    let mut budget = Budget::default();
    for index in 0..zip.len() {
        let entry = zip
            .by_index(index)
            .map_err(|e| refused(format!("zip entry {index}: {}", shorten(&e.to_string()))))?;
        let raw = entry
            .name()
            .map_err(|e| {
                refused(format!(
                    "zip entry {index}'s name: {}",
                    shorten(&e.to_string())
                ))
            })?
            .into_owned();
        let Some(relative) = plain_relative(Path::new(&raw)).filter(|_| !raw.contains('\\')) else {
            return Err(refused(format!(
                "the archive entry `{}` leads outside the skill folder",
                shorten(&raw)
            )));
        };
        if entry.is_symlink() {
            return Err(refused(format!(
                "the archive entry `{}` is a symbolic link; skills are installed without links",
                shorten(&raw)
            )));
        }
        if entry.is_dir() {
            make_folder(to, &relative, &mut budget)?;
        } else {
            let mode = entry.unix_mode();
            write_capped(entry, to, &relative, mode, &mut budget)?;
        }
    }
    Ok(())
}

/// Extracts the gzipped tar file `archive` into `to`.
pub(super) fn untar_gz(archive: &Path, to: &Path) -> Result<(), SkillError> {
    let file = File::open(archive).map_err(|e| SkillError::io(archive, e))?;
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let entries = tar.entries().map_err(|e| {
        refused(format!(
            "{}: not a readable .tar.gz: {}",
            shorten(&archive.display().to_string()),
            shorten(&e.to_string())
        ))
    })?;
    let mut budget = Budget::default();
    for entry in entries {
        let entry =
            entry.map_err(|e| refused(format!("a .tar.gz entry: {}", shorten(&e.to_string()))))?;
        let raw = entry
            .path()
            .map_err(|e| {
                refused(format!(
                    "a .tar.gz entry's path: {}",
                    shorten(&e.to_string())
                ))
            })?
            .into_owned();
        let shown = shorten(&raw.display().to_string());
        let Some(relative) = plain_relative(&raw) else {
            return Err(refused(format!(
                "the archive entry `{shown}` leads outside the skill folder"
            )));
        };
        let kind = entry.header().entry_type();
        if kind.is_dir() {
            make_folder(to, &relative, &mut budget)?;
        } else if kind.is_file() {
            let mode = entry.header().mode().ok();
            write_capped(entry, to, &relative, mode, &mut budget)?;
        } else if kind.is_symlink() || kind.is_hard_link() {
            return Err(refused(format!(
                "the archive entry `{shown}` is a link; skills are installed without links"
            )));
        } else if !(kind.is_pax_global_extensions() || kind.is_pax_local_extensions()) {
            return Err(refused(format!(
                "the archive entry `{shown}` is not a file or folder"
            )));
        }
    }
    Ok(())
}
