//! The environment every child starts with: an empty one plus an allow-list copied from Hearth's
//! own, so API keys, tokens, passwords and `HEARTH_*` settings never reach a command; and the
//! PATH lookup that finds shells and interpreters in it.

use crate::error::{ErrorKind, ToolError};
use std::ffi::{OsStr, OsString};
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

/// The variables copied into a child's environment (plus every `LC_*` locale variable).
/// Everything else — `OPENAI_API_KEY`, `*_TOKEN`, `*_SECRET`, `*PASSWORD*`, `HEARTH_*`, proxy
/// settings, D-Bus and display addresses — is left out: an allow-list cannot miss a secret whose
/// name nobody thought of, a deny-list can.
pub const ENV_ALLOW_LIST: [&str; 10] = [
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "TZ", "TMPDIR",
];

/// Used when Hearth itself runs without a PATH.
const FALLBACK_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// A child environment: name/value pairs to set after clearing the inherited ones.
#[derive(Debug, Clone)]
pub(crate) struct ChildEnv {
    vars: Vec<(OsString, OsString)>,
}

impl ChildEnv {
    /// The allow-listed part of Hearth's own environment.
    pub(crate) fn scrubbed() -> Self {
        let mut vars: Vec<(OsString, OsString)> = std::env::vars_os()
            .filter(|(name, _)| {
                name.to_str()
                    .is_some_and(|name| ENV_ALLOW_LIST.contains(&name) || name.starts_with("LC_"))
            })
            .collect();
        if !vars.iter().any(|(name, _)| name == "PATH") {
            vars.push(("PATH".into(), FALLBACK_PATH.into()));
        }
        Self { vars }
    }

    /// Sets (or replaces) one variable.
    pub(crate) fn set(&mut self, name: &str, value: impl Into<OsString>) {
        self.vars.retain(|(existing, _)| existing != name);
        self.vars.push((name.into(), value.into()));
    }

    pub(crate) fn vars(&self) -> impl Iterator<Item = (&OsStr, &OsStr)> {
        self.vars
            .iter()
            .map(|(name, value)| (name.as_os_str(), value.as_os_str()))
    }

    /// The value of `name`, when set.
    pub(crate) fn get(&self, name: &str) -> Option<&OsStr> {
        self.vars
            .iter()
            .find(|(existing, _)| existing == name)
            .map(|(_, value)| value.as_os_str())
    }

    fn path(&self) -> &OsStr {
        self.get("PATH").unwrap_or(OsStr::new(FALLBACK_PATH))
    }

    /// The first executable file called `name` on this environment's PATH.
    pub(crate) fn find_program(&self, name: &str) -> Option<PathBuf> {
        std::env::split_paths(self.path())
            .map(|dir| dir.join(name))
            .find(|candidate| {
                std::fs::metadata(candidate)
                    .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
            })
    }

    /// `bash`, or `sh` where there is no bash; `unavailable` when neither is on the PATH.
    pub(crate) fn shell(&self) -> Result<PathBuf, ToolError> {
        self.find_program("bash")
            .or_else(|| self.find_program("sh"))
            .ok_or_else(|| {
                ToolError::new(
                    ErrorKind::Unavailable,
                    format!(
                        "no shell found: neither bash nor sh is on the PATH ({})",
                        self.path().to_string_lossy()
                    ),
                )
            })
    }
}
