//! Unpacking into the staging folder: a folder copied (links refused), a zip or gzipped tar
//! extracted entry by entry, each path checked to be plain and relative, links refused, and
//! every file counted and its bytes capped as they are written (declared sizes are not
//! trusted).

use super::{plain_relative, Budget, MAX_FILES};
use crate::error::SkillError;
use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;

fn refused(message: String) -> SkillError {
    SkillError::Install(message)
}

/// Copies `reader` to a new file `target`, at most the bytes the budget has room for; `mode`
/// keeps an executable bit (Unix).
fn write_capped(
    reader: impl Read,
    target: &Path,
    mode: Option<u32>,
    budget: &mut Budget,
) -> Result<(), SkillError> {
    budget.add_file()?;
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).map_err(|e| SkillError::io(parent, e))?;
    }
    let mut file = File::create_new(target).map_err(|e| SkillError::io(target, e))?;
    let room = budget.room();
    let copied = std::io::copy(&mut reader.take(room + 1), &mut file)
        .map_err(|e| SkillError::io(target, e))?;
    budget.add_bytes(copied)?;
    file.flush().map_err(|e| SkillError::io(target, e))?;
    #[cfg(unix)]
    if mode.is_some_and(|m| m & 0o111 != 0) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(target, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| SkillError::io(target, e))?;
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
pub(super) fn copy_folder(from: &Path, to: &Path, budget: &mut Budget) -> Result<(), SkillError> {
    for entry in std::fs::read_dir(from).map_err(|e| SkillError::io(from, e))? {
        let entry = entry.map_err(|e| SkillError::io(from, e))?;
        let kind = entry
            .file_type()
            .map_err(|e| SkillError::io(entry.path(), e))?;
        let target = to.join(entry.file_name());
        if kind.is_symlink() {
            return Err(refused(format!(
                "{} is a symbolic link; skills are installed without links",
                entry.path().display()
            )));
        } else if kind.is_dir() {
            std::fs::create_dir_all(&target).map_err(|e| SkillError::io(&target, e))?;
            copy_folder(&entry.path(), &target, budget)?;
        } else if kind.is_file() {
            let file = File::open(entry.path()).map_err(|e| SkillError::io(entry.path(), e))?;
            let meta = file
                .metadata()
                .map_err(|e| SkillError::io(entry.path(), e))?;
            write_capped(file, &target, mode_of(&meta), budget)?;
        }
    }
    Ok(())
}

/// Extracts the zip file `archive` into `to`.
pub(super) fn unzip(archive: &Path, to: &Path) -> Result<(), SkillError> {
    let file = File::open(archive).map_err(|e| SkillError::io(archive, e))?;
    let mut zip = zip::ZipArchive::new(file).map_err(|e| {
        refused(format!(
            "{}: not a readable zip file: {e}",
            archive.display()
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
            .map_err(|e| refused(format!("zip entry {index}: {e}")))?;
        let raw = entry
            .name()
            .map_err(|e| refused(format!("zip entry {index}'s name: {e}")))?
            .into_owned();
        let Some(relative) = plain_relative(Path::new(&raw)).filter(|_| !raw.contains('\\')) else {
            return Err(refused(format!(
                "the archive entry `{raw}` leads outside the skill folder"
            )));
        };
        if entry.is_symlink() {
            return Err(refused(format!(
                "the archive entry `{raw}` is a symbolic link; skills are installed without links"
            )));
        }
        let target = to.join(relative);
        if entry.is_dir() {
            std::fs::create_dir_all(&target).map_err(|e| SkillError::io(&target, e))?;
        } else {
            let mode = entry.unix_mode();
            write_capped(entry, &target, mode, &mut budget)?;
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
            "{}: not a readable .tar.gz: {e}",
            archive.display()
        ))
    })?;
    let mut budget = Budget::default();
    for entry in entries {
        let entry = entry.map_err(|e| refused(format!("a .tar.gz entry: {e}")))?;
        let raw = entry
            .path()
            .map_err(|e| refused(format!("a .tar.gz entry's path: {e}")))?
            .into_owned();
        let Some(relative) = plain_relative(&raw) else {
            return Err(refused(format!(
                "the archive entry `{}` leads outside the skill folder",
                raw.display()
            )));
        };
        let target = to.join(relative);
        let kind = entry.header().entry_type();
        if kind.is_dir() {
            std::fs::create_dir_all(&target).map_err(|e| SkillError::io(&target, e))?;
        } else if kind.is_file() {
            let mode = entry.header().mode().ok();
            write_capped(entry, &target, mode, &mut budget)?;
        } else if kind.is_symlink() || kind.is_hard_link() {
            return Err(refused(format!(
                "the archive entry `{}` is a link; skills are installed without links",
                raw.display()
            )));
        } else if !(kind.is_pax_global_extensions() || kind.is_pax_local_extensions()) {
            return Err(refused(format!(
                "the archive entry `{}` is not a file or folder",
                raw.display()
            )));
        }
    }
    Ok(())
}
