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
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
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
}
