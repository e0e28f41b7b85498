//! Writing in the sandbox: protected paths, creating parent folders handle by handle, atomic
//! replacement (temp file + fsync + rename in the same folder) and appending.

use super::path::{protected, Step};
use super::walk::{End, Walked};
use super::{io_error, not_found, open_error, refuse_special, Located, PathArg};
use crate::error::{ErrorKind, ToolError};
use cap_fs_ext::{DirExt, FollowSymlinks, OpenOptionsFollowExt, OpenOptionsSyncExt};
use cap_std::fs::{Dir, File, Metadata, OpenOptions};
use std::ffi::OsString;
use std::io::{self, Read, Write};

/// A file about to be written: its folder (opened) and name, and what is there now.
pub(crate) struct WriteTarget<'a> {
    arg: PathArg<'a>,
    parent: Dir,
    name: OsString,
    existing: Option<Metadata>,
}

impl<'a> Located<'a> {
    /// Prepares a write: refuses protected paths and folders, and creates missing parent
    /// folders when `create_parents` (else a missing parent is `not_found`). Nothing is created
    /// before every check has passed.
    pub(crate) fn for_write(self, create_parents: bool) -> Result<WriteTarget<'a>, ToolError> {
        let arg = self.arg;
        let label = self.label;
        let Walked {
            mut dirs,
            mut names,
            end,
        } = self.walked;
        let (new_dirs, name, existing) = match end {
            End::Here => return Err(arg.invalid("is a folder, not a file")),
            End::Entry { name, meta } => (Vec::new(), name, Some(meta)),
            End::Missing { first, rest } => {
                let mut chain = vec![first];
                for step in rest {
                    match step {
                        Step::Name(name) => chain.push(name),
                        Step::Up => return Err(not_found(arg, label)),
                    }
                }
                let name = chain
                    .pop()
                    .ok_or_else(|| ToolError::internal("empty path"))?;
                (chain, name, None)
            }
        };
        names.extend(new_dirs.iter().cloned());
        names.push(name.clone());
        if let Some(what) = protected(&names) {
            return Err(arg.error(
                ErrorKind::NotPermitted,
                format!("is protected: file tools do not write {what}"),
            ));
        }
        if let Some(meta) = &existing {
            if meta.is_dir() {
                return Err(arg.invalid("is a folder, not a file"));
            }
            refuse_special(arg, meta)?;
        }
        if !new_dirs.is_empty() && !create_parents {
            return Err(arg.error(
                ErrorKind::NotFound,
                format!(
                    "does not exist: its folder `{}` is missing",
                    new_dirs[0].to_string_lossy()
                ),
            ));
        }
        let mut parent = dirs
            .pop()
            .ok_or_else(|| ToolError::internal("empty walk"))?;
        for dir in &new_dirs {
            match parent.create_dir(dir) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(io_error(arg, "create its folder", &e)),
            }
            parent = parent
                .open_dir_nofollow(dir)
                .map_err(|e| open_error(arg, &parent, dir, &e))?;
        }
        Ok(WriteTarget {
            arg,
            parent,
            name,
            existing,
        })
    }
}

impl WriteTarget<'_> {
    /// The entry there now (a regular file), if any.
    pub(crate) fn existing(&self) -> Option<&Metadata> {
        self.existing.as_ref()
    }

    /// Reads the existing file whole, refusing files over `max_bytes` (`too_large`) and reading
    /// at most `max_bytes + 1` bytes.
    pub(crate) fn read_existing(&self, max_bytes: u64) -> Result<Vec<u8>, ToolError> {
        let arg = self.arg;
        let mut options = OpenOptions::new();
        options.read(true).follow(FollowSymlinks::No).nonblock(true);
        let file = self
            .parent
            .open_with(&self.name, &options)
            .map_err(|e| open_error(arg, &self.parent, &self.name, &e))?;
        let meta = file.metadata().map_err(|e| io_error(arg, "read", &e))?;
        refuse_special(arg, &meta)?;
        let mut bytes = Vec::new();
        file.take(max_bytes + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| io_error(arg, "read", &e))?;
        if bytes.len() as u64 > max_bytes {
            return Err(arg.error(
                ErrorKind::TooLarge,
                format!("is larger than {max_bytes} bytes, the most this tool edits"),
            ));
        }
        Ok(bytes)
    }

    /// Replaces the file atomically: a temp file in the same folder, written and fsynced, then
    /// renamed over the name (keeping the old file's permissions). Readers see the old or the
    /// new content, never a mix; a failure leaves the old file untouched.
    pub(crate) fn replace(&self, bytes: &[u8]) -> Result<(), ToolError> {
        let temp = format!(".hearth-{}.tmp", uuid::Uuid::new_v4().simple());
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        let written = self
            .parent
            .open_with(&temp, &options)
            .and_then(|file| self.fill(file, bytes))
            .and_then(|()| self.parent.rename(&temp, &self.parent, &self.name));
        if let Err(e) = written {
            if let Err(cleanup) = self.parent.remove_file(&temp) {
                tracing::debug!(%cleanup, "temp file left after a failed write");
            }
            return Err(io_error(self.arg, "write", &e));
        }
        self.sync_parent();
        Ok(())
    }

    fn fill(&self, mut file: File, bytes: &[u8]) -> io::Result<()> {
        file.write_all(bytes)?;
        if let Some(meta) = &self.existing {
            file.set_permissions(meta.permissions())?;
        }
        file.sync_all()
    }

    /// Appends to the file (creating it), fsynced.
    pub(crate) fn append(&self, bytes: &[u8]) -> Result<(), ToolError> {
        let arg = self.arg;
        let mut options = OpenOptions::new();
        options
            .append(true)
            .create(true)
            .follow(FollowSymlinks::No)
            .nonblock(true);
        let mut file = self
            .parent
            .open_with(&self.name, &options)
            .map_err(|e| open_error(arg, &self.parent, &self.name, &e))?;
        let meta = file.metadata().map_err(|e| io_error(arg, "write", &e))?;
        refuse_special(arg, &meta)?;
        refuse_shared_inode(arg, &meta)?;
        file.write_all(bytes)
            .and_then(|()| file.sync_data())
            .map_err(|e| io_error(arg, "write", &e))?;
        if self.existing.is_none() {
            self.sync_parent();
        }
        Ok(())
    }

    /// Makes the new directory entry durable (best effort: not every platform can fsync a
    /// folder).
    fn sync_parent(&self) {
        let synced = self
            .parent
            .try_clone()
            .and_then(|dir| dir.into_std_file().sync_all());
        if let Err(error) = synced {
            tracing::debug!(%error, "folder not synced after a write");
        }
    }
}

/// Refuses appending to a file with more than one hard link: the bytes would land in every
/// name of that file, and the other names may be outside the workspace (finding them would
/// mean searching the whole file system). Replacing is safe and stays allowed: it writes a new
/// file and renames it over this name, so the other names keep the old content.
fn refuse_shared_inode(arg: PathArg<'_>, meta: &Metadata) -> Result<(), ToolError> {
    #[cfg(unix)]
    {
        use cap_std::fs::MetadataExt;
        let links = meta.nlink();
        if meta.is_file() && links > 1 {
            return Err(arg.error(
                ErrorKind::NotPermitted,
                format!(
                    "has {links} hard links, and the others may be outside the workspace: \
                     appending would change them too (write the whole file without `append` \
                     instead: that makes a new file under this name)"
                ),
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = (arg, meta);
    Ok(())
}
