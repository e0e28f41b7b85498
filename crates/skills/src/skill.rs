//! One loaded skill: its name, description, format, where it came from, the dialect its tools
//! speak and what it declares it may use; and loading a skill folder in either format.

use crate::error::SkillError;
use crate::{ceecore, echo};
use hearth_policy::SkillGrant;
pub use hearth_protocol::SkillDialect;
use serde::Serialize;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use ts_rs::TS;

/// The format a skill is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "SkillFormat")]
pub enum Format {
    /// Agent Skills / Echo: `SKILL.md` with YAML front matter.
    AgentSkills,
    /// CeeCore: `prompt.md` + `manifest.json` (+ `tools.json`).
    Ceecore,
}

/// Where a skill was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "SkillSource")]
pub enum Source {
    /// `<data dir>/skills/`.
    User,
    /// `<workspace>/.agents/skills/`, once the folder is trusted.
    Project,
    /// `<data dir>/skills/`, copied from another agent's skill folder.
    Imported,
}

/// A skill that loaded.
#[derive(Debug, Clone, Serialize)]
pub struct Skill {
    pub name: String,
    pub description: String,
    pub format: Format,
    pub source: Source,
    pub dialect: SkillDialect,
    /// The skill's folder (symlinks resolved).
    pub dir: PathBuf,
    /// `SKILL.md` or `prompt.md`: the instructions, relative to `dir`.
    pub instructions: &'static str,
    pub version: Option<String>,
    pub license: Option<String>,
    /// What the skill declares it may use.
    pub grant: SkillGrant,
    /// The tools `tools.json` declares (CeeCore).
    pub tools: Vec<crate::DeclaredTool>,
    /// Every field of the front matter or manifest, unknown ones included, as written.
    pub fields: Map<String, Value>,
    /// Switched on (the default): listed in the catalogue and runnable.
    pub enabled: bool,
}

/// Loads the skill in `dir`: `SKILL.md` makes it an Agent Skills skill, `manifest.json` a
/// CeeCore one.
pub fn load_skill(dir: &Path, source: Source) -> Result<Skill, SkillError> {
    let dir = std::fs::canonicalize(dir).map_err(|e| SkillError::io(dir, e))?;
    let folder = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if dir.join(echo::FILE).is_file() {
        echo::load(&dir, &folder, source)
    } else if dir.join(ceecore::MANIFEST).is_file() {
        ceecore::load(&dir, source)
    } else {
        Err(SkillError::invalid(
            echo::FILE,
            None,
            format!(
                "the folder has neither {} nor {} (with {})",
                echo::FILE,
                ceecore::MANIFEST,
                ceecore::PROMPT
            ),
        ))
    }
}

/// Reads a skill file as text.
pub(crate) fn read_text(dir: &Path, file: &str) -> Result<String, SkillError> {
    let path = dir.join(file);
    let bytes = std::fs::read(&path).map_err(|e| SkillError::io(&path, e))?;
    String::from_utf8(bytes).map_err(|_| SkillError::invalid(file, None, "is not UTF-8 text"))
}

/// The optional string field `field` of `fields`.
pub(crate) fn optional_string(
    fields: &Map<String, Value>,
    file: &str,
    field: &str,
) -> Result<Option<String>, SkillError> {
    match fields.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(SkillError::invalid(
            file,
            Some(field),
            format!("must be a string, not {}", kind(other)),
        )),
    }
}

/// The required description: 1 to 1,024 characters.
pub(crate) fn description(fields: &Map<String, Value>, file: &str) -> Result<String, SkillError> {
    let text = optional_string(fields, file, "description")?
        .ok_or_else(|| SkillError::invalid(file, Some("description"), "is missing"))?;
    let length = text.trim().chars().count();
    if length == 0 || length > 1024 {
        return Err(SkillError::invalid(
            file,
            Some("description"),
            format!("must be 1 to 1,024 characters long (is {length})"),
        ));
    }
    Ok(text.trim().to_string())
}

/// A JSON value's kind, for messages.
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}
