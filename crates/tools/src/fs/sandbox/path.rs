//! The path a model gives, turned into steps under the sandbox root, and the protected paths
//! inside a workspace that file tools may read but not write.

use crate::error::{ErrorKind, ToolError};
use std::ffi::{OsStr, OsString};
use std::path::{Component, Path};

/// The longest path text accepted (Linux `PATH_MAX`).
const MAX_PATH_CHARS: usize = 4096;

/// A path argument as the model wrote it, with the parameter it came in.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PathArg<'a> {
    pub field: &'static str,
    pub value: &'a str,
}

impl<'a> PathArg<'a> {
    pub(crate) fn new(field: &'static str, value: &'a str) -> Self {
        Self { field, value }
    }

    /// An error of `kind` whose message starts with the path as given.
    pub(crate) fn error(&self, kind: ErrorKind, message: impl AsRef<str>) -> ToolError {
        ToolError::new(kind, format!("`{}` {}", self.value, message.as_ref()))
    }

    pub(crate) fn invalid(&self, message: impl AsRef<str>) -> ToolError {
        ToolError::invalid(self.field, format!("`{}` {}", self.value, message.as_ref()))
    }
}

/// One step of a path below the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    Up,
    Name(OsString),
}

/// Splits `arg` into steps from the root. An absolute path must lie under one of `roots` (the
/// configured root and its canonical form); `..` steps are kept for the resolver to check.
pub(crate) fn steps(
    arg: PathArg<'_>,
    roots: &[&Path],
    label: &str,
) -> Result<Vec<Step>, ToolError> {
    let text = arg.value;
    if text.trim().is_empty() {
        return Err(ToolError::invalid(arg.field, "must not be empty"));
    }
    if text.contains('\0') {
        return Err(arg.invalid("contains a NUL character"));
    }
    if text.chars().count() > MAX_PATH_CHARS {
        return Err(ToolError::invalid(
            arg.field,
            format!("is longer than {MAX_PATH_CHARS} characters"),
        ));
    }
    let path = Path::new(text);
    let relative = if path.has_root() || path.is_absolute() {
        roots
            .iter()
            .find_map(|root| path.strip_prefix(root).ok())
            .ok_or_else(|| {
                arg.error(
                    ErrorKind::NotPermitted,
                    format!("is outside the {label}: absolute paths must be inside it; use a path relative to the {label}"),
                )
            })?
    } else {
        path
    };
    let mut out = Vec::new();
    for component in relative.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => out.push(Step::Up),
            Component::Normal(name) => {
                if out.is_empty() && name == OsStr::new("~") {
                    return Err(arg.error(
                        ErrorKind::NotPermitted,
                        format!("is home-relative, which is outside the {label}; use a path relative to the {label}"),
                    ));
                }
                out.push(Step::Name(name.to_os_string()));
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(arg.error(ErrorKind::NotPermitted, format!("is outside the {label}")));
            }
        }
    }
    Ok(out)
}

/// Shell start-up files: writing one plants commands the user's next shell runs.
const SHELL_RC_FILES: [&str; 7] = [
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
];

/// Why writing the workspace-relative path made of `names` is refused, if it is: git hooks and
/// config, shell start-up files, `.mcp.json` and Hearth's own `.hearth/` folder (matched
/// case-insensitively, for case-insensitive file systems). `.git/objects`, `.git/refs` and
/// `.git/index` stay writable.
pub(crate) fn protected(names: &[OsString]) -> Option<&'static str> {
    let lower: Vec<String> = names
        .iter()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .collect();
    for (index, name) in lower.iter().enumerate() {
        if name == ".hearth" {
            return Some("Hearth's own configuration and skills folder (.hearth/)");
        }
        if name == ".git" {
            match lower.get(index + 1).map(String::as_str) {
                Some("hooks") => return Some("git hooks (.git/hooks/), which run commands"),
                Some("config") => return Some("the git configuration (.git/config)"),
                _ => {}
            }
        }
    }
    let last = lower.last()?;
    if SHELL_RC_FILES.contains(&last.as_str()) {
        return Some("a shell start-up file");
    }
    if last == ".mcp.json" {
        return Some("the MCP server configuration (.mcp.json)");
    }
    None
}
