//! The resolver: walks a path one component at a time through opened directory handles,
//! following symbolic links itself and never re-resolving a string path.

use super::path::Step;
use cap_fs_ext::DirExt;
use cap_std::fs::{Dir, Metadata};
use std::collections::VecDeque;
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path};

/// How many symbolic links (and folders swapped mid-walk) one resolution may pass through.
const MAX_LINKS: usize = 40;

/// Where a walk ended.
pub(crate) enum End {
    /// The path names the last directory of the walk itself (the root, or after `..`).
    Here,
    /// The path names an existing entry (not a symbolic link) of the last directory.
    Entry { name: OsString, meta: Metadata },
    /// `first` does not exist in the last directory; `rest` are the steps after it.
    Missing { first: OsString, rest: Vec<Step> },
}

/// A finished walk: the directories opened from the root down and where it ended.
pub(crate) struct Walked {
    /// `dirs[0]` is the root; `dirs[i + 1]` is the entry `names[i]` of `dirs[i]`.
    pub dirs: Vec<Dir>,
    /// The path of the last directory relative to the root, without any symbolic link.
    pub names: Vec<OsString>,
    pub end: End,
}

#[derive(Debug)]
pub(crate) enum WalkError {
    /// `..` above the root.
    Escape,
    /// A symbolic link pointing outside the root (or to an absolute path it cannot place).
    LinkOutside,
    TooManyLinks,
    /// A component that is not a directory has more steps after it.
    NotADirectory(OsString),
    Io(io::Error),
}

/// Walks `steps` from `root`. `roots` are the root's absolute forms, used to place symbolic
/// links with absolute targets.
pub(crate) fn walk(root: &Dir, roots: &[&Path], steps: Vec<Step>) -> Result<Walked, WalkError> {
    let mut dirs = vec![root.try_clone().map_err(WalkError::Io)?];
    let mut names: Vec<OsString> = Vec::new();
    let mut queue: VecDeque<Step> = steps.into();
    let mut budget = MAX_LINKS;
    while let Some(step) = queue.pop_front() {
        let name = match step {
            Step::Up => {
                if names.pop().is_none() {
                    return Err(WalkError::Escape);
                }
                dirs.pop();
                continue;
            }
            Step::Name(name) => name,
        };
        let here = dirs.last().ok_or(WalkError::Escape)?;
        let meta = match here.symlink_metadata(&name) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let rest = queue.into_iter().collect();
                let end = End::Missing { first: name, rest };
                return Ok(Walked { dirs, names, end });
            }
            Err(e) => return Err(WalkError::Io(e)),
        };
        if meta.is_symlink() {
            budget = budget.checked_sub(1).ok_or(WalkError::TooManyLinks)?;
            let target = here.read_link_contents(&name).map_err(WalkError::Io)?;
            let (absolute, target_steps) = link_steps(&target, roots)?;
            if absolute {
                dirs.truncate(1);
                names.clear();
            }
            for step in target_steps.into_iter().rev() {
                queue.push_front(step);
            }
            continue;
        }
        if queue.is_empty() {
            let end = End::Entry { name, meta };
            return Ok(Walked { dirs, names, end });
        }
        if !meta.is_dir() {
            return Err(WalkError::NotADirectory(name));
        }
        match here.open_dir_nofollow(&name) {
            Ok(dir) => {
                dirs.push(dir);
                names.push(name);
            }
            Err(e) => {
                // Swapped for a link or a file since the stat: look at it again.
                let changed = here
                    .symlink_metadata(&name)
                    .map_or(true, |now| now.is_symlink() || !now.is_dir());
                if !changed {
                    return Err(WalkError::Io(e));
                }
                budget = budget.checked_sub(1).ok_or(WalkError::TooManyLinks)?;
                queue.push_front(Step::Name(name));
            }
        }
    }
    Ok(Walked {
        dirs,
        names,
        end: End::Here,
    })
}

/// The steps of a link target: relative targets continue from the link's folder; absolute
/// ones must lie under the root and restart from it (`true`).
fn link_steps(target: &Path, roots: &[&Path]) -> Result<(bool, Vec<Step>), WalkError> {
    let absolute = target.has_root() || target.is_absolute();
    let relative = if absolute {
        roots
            .iter()
            .find_map(|root| target.strip_prefix(root).ok())
            .ok_or(WalkError::LinkOutside)?
    } else {
        target
    };
    let mut steps = Vec::new();
    for component in relative.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => steps.push(Step::Up),
            Component::Normal(name) => steps.push(Step::Name(name.to_os_string())),
            Component::RootDir | Component::Prefix(_) => return Err(WalkError::LinkOutside),
        }
    }
    Ok((absolute, steps))
}
