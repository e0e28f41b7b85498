//! The file-system half of the Linux sandbox, with Landlock. Landlock only *allows*: a program
//! may reach what some rule grants, nothing else. "Everything but the secrets" is therefore
//! granted by walking down from `/` around each denied path: a folder that holds no denied
//! path is granted whole; one that does is opened and each of its entries is considered in
//! turn; a denied path itself gets no rule. So with `~/.ssh` denied, `/usr`, `/etc`, … and every
//! entry of `~` except `.ssh` are readable. A walked folder itself may still be listed (`ls ~`
//! works): Landlock's right to list applies to a whole tree, so the *names* inside a denied
//! folder can be listed too, never their contents. Entries added later to a folder that was walked
//! (a new file directly in `~`) are not readable by a program already running; a symbolic link
//! leading into a denied path gets no rule. Writes are granted only in the writable folders and
//! on the terminal and null devices; a writable folder holding a denied path is walked around
//! the same way (its entries are writable, but nothing can be created directly in it, since the
//! right to create applies to the whole tree below, the denied path included).

use crate::{Mode, Sandbox, SandboxError};
use landlock::{
    path_beneath_rules, Access, AccessFs, LandlockStatus, Ruleset, RulesetAttr, RulesetCreated,
    RulesetCreatedAttr, RulesetError, RulesetStatus, ABI,
};
use std::path::{Path, PathBuf};

/// The newest Landlock ABI this sandbox was written and tested for (Linux 6.10): every right,
/// including truncation and device ioctls, is handled. Older kernels enforce what they know.
const TARGET_ABI: ABI = ABI::V5;

/// Devices any program may write (the terminal, the null sink, shared memory for Python's
/// multiprocessing).
const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/ptmx",
];
const DEVICE_FOLDERS: &[&str] = &["/dev/pts", "/dev/shm"];

/// Restricts the calling thread to `sandbox`'s file rules; returns a note when the kernel
/// enforces them only partly.
pub(super) fn restrict(sandbox: &Sandbox) -> Result<Option<String>, SandboxError> {
    let unavailable = |e: &dyn std::fmt::Display| SandboxError::Unavailable {
        reason: format!("Landlock could not be applied: {e}"),
    };
    let ruleset =
        super::rulesets::ruleset(sandbox, || build(sandbox)).map_err(|e| unavailable(&e))?;
    let status = ruleset.restrict_self().map_err(|e| unavailable(&e))?;
    match status.ruleset {
        RulesetStatus::FullyEnforced => Ok(None),
        RulesetStatus::PartiallyEnforced => Ok(Some(
            "Landlock partially enforced: this kernel predates some of the rights (file \
             truncation or device ioctl control)"
                .to_string(),
        )),
        RulesetStatus::NotEnforced => Err(SandboxError::Unavailable {
            reason: unsupported(status.landlock),
        }),
    }
}

/// The ruleset of `sandbox`, not applied yet, with the folders its walk read.
fn build(sandbox: &Sandbox) -> Result<(RulesetCreated, Vec<PathBuf>), RulesetError> {
    let denied: Vec<PathBuf> = sandbox.denied.iter().map(|path| canonical(path)).collect();
    let (mut readable, mut listed) = (Vec::new(), Vec::new());
    around(Path::new("/"), false, &denied, &mut readable, &mut listed);
    let writable: &[PathBuf] = match sandbox.mode {
        Mode::ReadOnly => &[],
        Mode::WorkspaceWrite | Mode::Off => &sandbox.writable,
    };
    // A writable folder inside a denied path is granted (an explicit grant wins over a broader
    // denial: a skill's folder in the data dir); a denied path inside a writable folder is
    // walked around the same way (a home folder under the writable temp folder).
    let mut writable_parts = Vec::new();
    for root in writable {
        let root = canonical(root);
        let inside: Vec<PathBuf> = denied
            .iter()
            .filter(|d| d.starts_with(&root) && **d != root)
            .cloned()
            .collect();
        around(&root, false, &inside, &mut writable_parts, &mut listed);
    }
    let read = AccessFs::from_read(TARGET_ABI) | AccessFs::IoctlDev;
    let all = AccessFs::from_all(TARGET_ABI);
    let ruleset = Ruleset::default()
        .handle_access(all)?
        .create()?
        .add_rules(path_beneath_rules(&readable, read))?
        .add_rules(path_beneath_rules(&listed, AccessFs::ReadDir))?
        .add_rules(path_beneath_rules(&writable_parts, all))?
        .add_rules(path_beneath_rules(DEVICES, read | AccessFs::WriteFile))?
        .add_rules(path_beneath_rules(DEVICE_FOLDERS, all))?;
    Ok((ruleset, listed))
}

/// The path with its symbolic links resolved, or as given when it does not exist.
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Adds to `out` what under `path` (a symbolic link when `link`) may be read: all of it when
/// no denied path is inside, else each entry in turn, the folder itself to `listed` (see the
/// module docs). Only links are resolved: the walk starts at `/` and every other entry's path
/// is already its real one, which keeps the walk to one `readdir` per walked folder.
fn around(
    path: &Path,
    link: bool,
    denied: &[PathBuf],
    out: &mut Vec<PathBuf>,
    listed: &mut Vec<PathBuf>,
) {
    let resolved;
    let target = if link {
        resolved = canonical(path);
        resolved.as_path()
    } else {
        path
    };
    if denied.iter().any(|d| target.starts_with(d)) {
        return;
    }
    if !denied.iter().any(|d| d.starts_with(target)) {
        out.push(path.to_path_buf());
        return;
    }
    // A link to a folder holding a denied path gets no rule: the walk reaches its target where
    // it really is.
    if link {
        return;
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    listed.push(path.to_path_buf());
    for entry in entries.flatten() {
        let link = entry.file_type().map_or(true, |kind| kind.is_symlink());
        around(&entry.path(), link, denied, out, listed);
    }
}

fn unsupported(status: LandlockStatus) -> String {
    match status {
        LandlockStatus::NotEnabled => "this kernel has Landlock but it is not enabled (add \
             `landlock` to the `lsm=` boot parameter)"
            .to_string(),
        LandlockStatus::NotImplemented => "this kernel has no Landlock (Linux 5.13 or newer \
             built with it is needed)"
            .to_string(),
        LandlockStatus::Available { .. } => {
            "Landlock is available but the rules were not enforced".to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::around;
    use std::path::PathBuf;

    #[test]
    fn the_walk_grants_siblings_and_skips_the_denied_path_and_links_into_it() {
        let home = tempfile::tempdir().unwrap();
        let root = home.path().canonicalize().unwrap();
        for dir in [".ssh", ".config/gcloud", ".config/nvim", "work"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        std::fs::write(root.join("notes.txt"), "x").unwrap();
        std::os::unix::fs::symlink(root.join(".ssh"), root.join("keys")).unwrap();
        let denied = vec![root.join(".ssh"), root.join(".config/gcloud")];
        let (mut out, mut listed) = (Vec::new(), Vec::new());
        around(&root, false, &denied, &mut out, &mut listed);
        assert_eq!(listed, [root.clone(), root.join(".config")]);
        out.sort();
        let expected: Vec<PathBuf> = [".config/nvim", "notes.txt", "work"]
            .iter()
            .map(|p| root.join(p))
            .collect();
        assert_eq!(out, expected);
    }
}
