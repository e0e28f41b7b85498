//! Hearth's skills: the Agent Skills / Echo (`SKILL.md`) and CeeCore (`prompt.md` +
//! `manifest.json` + `tools.json`) formats loaded without changing a byte, validation naming
//! the file and field at fault, the library of the user's and trusted projects' skills (broken
//! ones listed with their reason), paths confined to a skill's folder, and the compact catalogue
//! the system prompt carries, installing from a folder or archive, importing other agents'
//! skills and the user's on/off switches (the README's "Skills" section).

mod catalogue;
mod ceecore;
mod echo;
mod error;
mod files;
mod import;
mod install;
mod library;
mod name;
mod skill;
mod state;
mod trust;

pub use catalogue::{prompt_catalogue, CATALOGUE_TOKEN_BUDGET, ENTRY_TOKEN_CAP};
pub use ceecore::{DeclaredTool, ToolRunner};
pub use error::SkillError;
pub use files::{resolve_inside, resolve_new_inside, skill_files};
pub use import::{import_candidates, import_skill, ImportCandidate, AGENT_FOLDERS};
pub use install::{clone_git, install, is_git_url, stage, Staged, MAX_BYTES, MAX_FILES};
pub use library::{Broken, Library, SkillRoots};
pub use name::check_name;
pub use skill::{load_skill, Format, Skill, SkillDialect, Source};
pub use state::{forget, set_enabled, SkillState};
pub use trust::{is_trusted, trust_folder};
