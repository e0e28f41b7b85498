//! The file sandbox: resolves every path inside a root folder (workspace or spill folder)
//! through opened directory handles; on Linux each open is `openat2` RESOLVE_BENEATH (cap-std).

mod path;
mod walk;
mod write;

pub(crate) use path::PathArg;
pub(crate) use write::WriteTarget;

use crate::error::{ErrorKind, ToolError};
use cap_fs_ext::{DirExt, FollowSymlinks, OpenOptionsFollowExt, OpenOptionsSyncExt};
use cap_std::ambient_authority;
use cap_std::fs::{Dir, File, Metadata, OpenOptions};
use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use walk::{End, WalkError, Walked};

/// Folders that are never a sandbox root: their files are the kernel's, not the user's.
const SYSTEM_ROOTS: [&str; 3] = ["/proc", "/sys", "/dev"];

/// An opened root folder and the resolver over it.
pub(crate) struct Sandbox {
    root: Dir,
    /// The root as configured and canonical (absolute paths under either are accepted).
    roots: Vec<PathBuf>,
    label: &'static str,
}

impl Sandbox {
    /// The session's workspace, created when it does not exist yet.
    pub(crate) fn workspace(workspace: &Path) -> Result<Self, ToolError> {
        std::fs::create_dir_all(workspace).map_err(|e| {
            ToolError::internal(format!("the workspace folder could not be created: {e}"))
        })?;
        Self::open(workspace, "workspace")
    }

    /// The spill folder under the data dir, where over-long tool outputs are saved.
    pub(crate) fn spill(data_dir: &Path) -> Result<Self, ToolError> {
        let root = data_dir.join("spill");
        if !root.is_dir() {
            return Err(ToolError::new(
                ErrorKind::NotFound,
                "no tool output has been spilled yet (the spill folder does not exist)",
            ));
        }
        Self::open(&root, "spill folder")
    }

    fn open(root: &Path, label: &'static str) -> Result<Self, ToolError> {
        let canonical = std::fs::canonicalize(root)
            .map_err(|e| ToolError::internal(format!("the {label} cannot be opened: {e}")))?;
        if cfg!(unix) && SYSTEM_ROOTS.iter().any(|s| canonical.starts_with(s)) {
            return Err(ToolError::new(
                ErrorKind::NotPermitted,
                format!("the {label} is inside a system folder (/proc, /sys or /dev); choose another {label}"),
            ));
        }
        let dir = Dir::open_ambient_dir(&canonical, ambient_authority())
            .map_err(|e| ToolError::internal(format!("the {label} cannot be opened: {e}")))?;
        let mut roots = vec![canonical];
        if root.is_absolute() && !roots.iter().any(|r| r == root) {
            roots.push(root.to_path_buf());
        }
        Ok(Self {
            root: dir,
            roots,
            label,
        })
    }

    /// The root's canonical absolute path.
    pub(crate) fn root_path(&self) -> &Path {
        &self.roots[0]
    }

    pub(crate) fn root_dir(&self) -> &Dir {
        &self.root
    }

    pub(crate) fn label(&self) -> &'static str {
        self.label
    }

    /// Resolves `arg` inside the root (existing or not).
    pub(crate) fn locate<'a>(&self, arg: PathArg<'a>) -> Result<Located<'a>, ToolError> {
        let roots: Vec<&Path> = self.roots.iter().map(PathBuf::as_path).collect();
        let steps = path::steps(arg, &roots, self.label)?;
        let walked = walk::walk(&self.root, &roots, steps).map_err(|e| self.walk_error(arg, e))?;
        Ok(Located {
            arg,
            walked,
            label: self.label,
        })
    }

    fn walk_error(&self, arg: PathArg<'_>, error: WalkError) -> ToolError {
        let label = self.label;
        match error {
            WalkError::Escape | WalkError::LinkOutside => arg.error(
                ErrorKind::NotPermitted,
                format!("resolves to a place outside the {label} (through `..` or a symbolic link); file tools only reach inside the {label}"),
            ),
            WalkError::TooManyLinks => arg.error(
                ErrorKind::NotPermitted,
                "goes through too many symbolic links (or kept changing while it was opened)",
            ),
            WalkError::NotADirectory(name) => arg.error(
                ErrorKind::NotFound,
                format!("does not exist: `{}` is not a folder", name.to_string_lossy()),
            ),
            WalkError::Io(e) => io_error(arg, "open", &e),
        }
    }
}

/// A resolved path: the directories walked and where it ended.
pub(crate) struct Located<'a> {
    arg: PathArg<'a>,
    walked: Walked,
    label: &'static str,
}

impl<'a> Located<'a> {
    /// The resolved path of an existing file or folder relative to the root, with `/`
    /// separators and no symbolic link (`.` for the root).
    pub(crate) fn existing_relative(&self) -> Result<String, ToolError> {
        match &self.walked.end {
            End::Missing { .. } => Err(not_found(self.arg, self.label)),
            End::Entry { meta, .. } => refuse_special(self.arg, meta).map(|()| self.relative()),
            End::Here => Ok(self.relative()),
        }
    }

    fn relative(&self) -> String {
        let mut parts: Vec<String> = self
            .walked
            .names
            .iter()
            .map(|n| n.to_string_lossy().into_owned())
            .collect();
        if let End::Entry { name, .. } = &self.walked.end {
            parts.push(name.to_string_lossy().into_owned());
        }
        if parts.is_empty() {
            ".".to_string()
        } else {
            parts.join("/")
        }
    }

    /// Opens the existing regular file for reading: never a FIFO, socket or device (they are
    /// refused before any open, and the opened handle is checked again).
    pub(crate) fn open_file(self) -> Result<(File, Metadata), ToolError> {
        let arg = self.arg;
        let (parent, name, meta) = self.entry()?;
        if meta.is_dir() {
            return Err(arg.invalid("is a folder, not a file (list_dir lists a folder)"));
        }
        refuse_special(arg, &meta)?;
        let mut options = OpenOptions::new();
        options.read(true).follow(FollowSymlinks::No).nonblock(true);
        let file = parent
            .open_with(&name, &options)
            .map_err(|e| open_error(arg, &parent, &name, &e))?;
        let meta = file.metadata().map_err(|e| io_error(arg, "open", &e))?;
        refuse_special(arg, &meta)?;
        Ok((file, meta))
    }

    /// Opens the existing folder (the root itself included).
    pub(crate) fn open_dir(self) -> Result<Dir, ToolError> {
        let arg = self.arg;
        if matches!(self.walked.end, End::Here) {
            let Walked { mut dirs, .. } = self.walked;
            return dirs.pop().ok_or_else(|| ToolError::internal("empty walk"));
        }
        let (parent, name, meta) = self.entry()?;
        if !meta.is_dir() {
            return Err(arg.invalid("is a file, not a folder"));
        }
        parent
            .open_dir_nofollow(&name)
            .map_err(|e| open_error(arg, &parent, &name, &e))
    }

    /// Whether the path names something that exists.
    pub(crate) fn exists(&self) -> bool {
        !matches!(self.walked.end, End::Missing { .. })
    }

    /// The parent directory, name and metadata of an existing entry.
    fn entry(self) -> Result<(Dir, OsString, Metadata), ToolError> {
        let arg = self.arg;
        let Walked { mut dirs, end, .. } = self.walked;
        match end {
            End::Here => Err(arg.invalid("is a folder, not a file")),
            End::Missing { .. } => Err(not_found(arg, self.label)),
            End::Entry { name, meta } => {
                let parent = dirs
                    .pop()
                    .ok_or_else(|| ToolError::internal("empty walk"))?;
                Ok((parent, name, meta))
            }
        }
    }
}

pub(crate) fn not_found(arg: PathArg<'_>, label: &str) -> ToolError {
    arg.error(
        ErrorKind::NotFound,
        format!("does not exist in the {label}"),
    )
}

/// Refuses FIFOs, sockets and devices: reading one could block or have side effects.
fn refuse_special(arg: PathArg<'_>, meta: &Metadata) -> Result<(), ToolError> {
    if meta.is_file() || meta.is_dir() {
        return Ok(());
    }
    Err(arg.error(
        ErrorKind::NotPermitted,
        format!(
            "is a {}, not a regular file; file tools only use regular files",
            special_kind(meta)
        ),
    ))
}

fn special_kind(meta: &Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use cap_std::fs::FileTypeExt;
        let kind = meta.file_type();
        if kind.is_fifo() {
            return "FIFO (named pipe)";
        }
        if kind.is_socket() {
            return "socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "device";
        }
    }
    if meta.is_symlink() {
        return "symbolic link";
    }
    "special file"
}

/// A failed open of an entry that was a plain file or folder a moment before: when it has just
/// become a symbolic link (a swap under way), that is refused rather than followed.
pub(crate) fn open_error(
    arg: PathArg<'_>,
    parent: &Dir,
    name: &OsString,
    error: &io::Error,
) -> ToolError {
    let swapped = parent.symlink_metadata(name).is_ok_and(|m| m.is_symlink());
    if swapped {
        return arg.error(
            ErrorKind::NotPermitted,
            "was replaced by a symbolic link while it was being opened; try again",
        );
    }
    io_error(arg, "open", error)
}

/// An I/O failure, naming the path as given (never the resolved absolute path).
pub(crate) fn io_error(arg: PathArg<'_>, action: &str, error: &io::Error) -> ToolError {
    match error.kind() {
        io::ErrorKind::NotFound => arg.error(ErrorKind::NotFound, "does not exist"),
        io::ErrorKind::PermissionDenied => arg.error(
            ErrorKind::NotPermitted,
            format!("could not {action}: permission denied"),
        ),
        _ => arg.error(ErrorKind::Internal, format!("could not {action}: {error}")),
    }
}
