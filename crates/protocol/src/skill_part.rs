//! The skill a message runs, kept beside what the user typed: its dialect, and the text the
//! model reads for it (which skill, its folder and its instructions).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The tool dialect a skill's run speaks (tool names and argument shapes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum SkillDialect {
    Echo,
    Ceecore,
    Picobot,
}

impl SkillDialect {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Echo => "echo",
            Self::Ceecore => "ceecore",
            Self::Picobot => "picobot",
        }
    }
}

/// What the model reads for a [`crate::ContentPart::Skill`]: the skill's name and folder, its
/// instructions as written in `file`, and that it is to be carried out (for the user's text
/// that follows, when there is some).
pub fn skill_prompt(name: &str, folder: &str, file: &str, instructions: &str) -> String {
    format!(
        "Use the skill `{name}` (its folder: {folder}). Its instructions ({file}):\n\n\
         {instructions}\n\n---\n\nCarry out the skill `{name}` for the message that follows, if any."
    )
}
