//! What went wrong loading or touching a skill: the file, the field when there is one, and
//! what is wrong with it.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum SkillError {
    /// A skill file is malformed: `file` is relative to the skill folder.
    #[error("{file}{}: {message}", field.as_ref().map(|f| format!(", field `{f}`")).unwrap_or_default())]
    Invalid {
        file: String,
        field: Option<String>,
        message: String,
    },
    /// A path leads outside the skill folder.
    #[error("`{0}` is outside the skill's folder")]
    Outside(String),
    /// An install was refused (hostile or oversized archive, a name already installed…).
    #[error("{0}")]
    Install(String),
    #[error("no skill named `{0}`")]
    NotFound(String),
    #[error("the skill `{0}` is switched off; switch it on on the Skills page first")]
    Disabled(String),
    #[error("{}: {source}", shorten(&path.display().to_string()))]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// An entry of a skill being installed could not be written: `entry` is its path inside
    /// the skill (cut to `SHOWN_PATH_CHARS`), `source` the operating system's reason.
    #[error("cannot unpack `{}`: {source}", shorten(entry))]
    Unpack {
        entry: String,
        source: std::io::Error,
    },
}

/// The most characters of a path an error shows (a hostile archive's names can be kilobytes
/// long); a longer one keeps its start and end around `…`.
pub(crate) const SHOWN_PATH_CHARS: usize = 120;

/// `path` cut to [`SHOWN_PATH_CHARS`] characters.
pub(crate) fn shorten(path: &str) -> String {
    let count = path.chars().count();
    if count <= SHOWN_PATH_CHARS {
        return path.to_string();
    }
    let half = SHOWN_PATH_CHARS / 2;
    let head: String = path.chars().take(half).collect();
    let tail: String = path.chars().skip(count - half).collect();
    format!("{head}…{tail}")
}

impl SkillError {
    pub(crate) fn invalid(file: &str, field: Option<&str>, message: impl Into<String>) -> Self {
        Self::Invalid {
            file: file.to_string(),
            field: field.map(str::to_string),
            message: message.into(),
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }

    /// Writing `entry` (relative to the skill) failed.
    pub(crate) fn unpack(entry: &std::path::Path, source: std::io::Error) -> Self {
        Self::Unpack {
            entry: entry.display().to_string(),
            source,
        }
    }
}
