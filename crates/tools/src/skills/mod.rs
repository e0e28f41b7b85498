//! Skill tools over the library of `hearth-skills`: `skills_list` and `skill_view` (and
//! PicoBot's `get_skill`), which read skills and never leave a skill's folder, and
//! `skill_manage`, which changes one skill's files only; `skill_install` (registered with the
//! network tools). `skill_run` is an execution tool
//! (`exec::skill_run`).

mod declared;
mod install;
mod list;
mod manage;
mod review;
mod view;

pub use declared::register_declared_tools;
pub use install::{download_skill_archive, InstallSource, SkillInstall, SkillInstallArgs};
pub use list::{GetSkill, GetSkillAction, GetSkillArgs, SkillsList, SkillsListArgs};
pub use manage::{ManageAction, SkillManage, SkillManageArgs};
pub use view::{SkillView, SkillViewArgs};

use crate::error::{ErrorKind, ToolError};
use crate::tool::ToolContext;
use hearth_skills::{Library, Skill, SkillError, SkillRoots};
use serde_json::{json, Value};

/// The library this call sees: the user's skills and the workspace's trusted project skills.
pub(crate) async fn library(ctx: &ToolContext) -> Result<Library, ToolError> {
    let roots = roots(ctx);
    tokio::task::spawn_blocking(move || Library::load(&roots))
        .await
        .map_err(|e| ToolError::internal(format!("loading the skills failed: {e}")))?
        .map_err(|e| skill_error(e, "name"))
}

pub(crate) fn roots(ctx: &ToolContext) -> SkillRoots {
    SkillRoots {
        data_dir: ctx.data_dir.clone(),
        workspace: Some(ctx.workspace.clone()),
    }
}

/// The skill `name`, or `not_found` listing the installed ones.
pub(crate) fn find<'a>(library: &'a Library, name: &str) -> Result<&'a Skill, ToolError> {
    library.get(name).map_err(|_| {
        let known: Vec<&str> = library.skills.iter().map(|s| s.name.as_str()).collect();
        let broken = library
            .broken
            .iter()
            .find(|b| b.folder == name)
            .map(|b| format!("; the skill folder `{name}` is broken: {}", b.reason))
            .unwrap_or_default();
        ToolError {
            kind: ErrorKind::NotFound,
            message: format!(
                "no skill named `{name}`; installed skills: {}{broken}",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ),
            field: Some("name".into()),
        }
    })
}

/// A skills error as the model reads it; `field` is the argument a bad path came from.
pub(crate) fn skill_error(error: SkillError, field: &str) -> ToolError {
    match &error {
        SkillError::Outside(_) => ToolError {
            kind: ErrorKind::NotPermitted,
            message: error.to_string(),
            field: Some(field.into()),
        },
        SkillError::NotFound(_) => ToolError::new(ErrorKind::NotFound, error.to_string()),
        SkillError::Disabled(_) => ToolError::new(ErrorKind::NotPermitted, error.to_string()),
        SkillError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
            ToolError {
                kind: ErrorKind::NotFound,
                message: error.to_string(),
                field: Some(field.into()),
            }
        }
        SkillError::Invalid { .. } | SkillError::Install(_) => {
            ToolError::invalid(field, error.to_string())
        }
        SkillError::Io { .. } | SkillError::Unpack { .. } => ToolError::internal(error.to_string()),
    }
}

/// One skill as listed: name, description, format, source, dialect and its declaration.
pub(crate) fn summary(skill: &Skill) -> Value {
    json!({
        "name": skill.name,
        "description": skill.description,
        "format": skill.format,
        "source": skill.source,
        "dialect": skill.dialect.as_str(),
        "declares": skill.grant.declaration,
        "enabled": skill.enabled,
    })
}
