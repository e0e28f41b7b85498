//! `skill_view`: a skill's instructions (`SKILL.md` / `prompt.md`) and its file list, or one
//! file inside the skill; never a file outside its folder.

use super::{find, library, skill_error, summary};
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_skills::{resolve_inside, skill_files};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

/// The largest skill file returned.
const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// `skill_view`.
pub struct SkillView;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkillViewArgs {
    /// The skill's name (see skills_list).
    #[schemars(length(min = 1, max = 128))]
    pub name: String,
    /// A file inside the skill, relative to its folder (e.g. `references/api.md`); absent: its
    /// instructions.
    pub file: Option<String>,
}

/// `{name, file, content}` plus, for the instructions, the skill's summary and `files`.
pub(super) async fn view(
    ctx: &ToolContext,
    name: &str,
    file: Option<&str>,
    name_field: &str,
) -> Result<Value, ToolError> {
    let library = library(ctx).await?;
    let skill = find(&library, name).map_err(|mut e| {
        e.field = Some(name_field.into());
        e
    })?;
    let relative = file.unwrap_or(skill.instructions);
    let path = resolve_inside(&skill.dir, relative).map_err(|e| skill_error(e, "file"))?;
    let meta = tokio::fs::metadata(&path)
        .await
        .map_err(|e| ToolError::internal(format!("{relative}: {e}")))?;
    if meta.is_dir() {
        return Err(ToolError::invalid(
            "file",
            format!("`{relative}` is a folder; pass a file inside it"),
        ));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(ToolError::new(
            ErrorKind::TooLarge,
            format!(
                "`{relative}` has {} bytes, over the 1 MiB limit",
                meta.len()
            ),
        ));
    }
    let bytes = tokio::fs::read(&path)
        .await
        .map_err(|e| ToolError::internal(format!("{relative}: {e}")))?;
    let content = String::from_utf8(bytes)
        .map_err(|_| ToolError::invalid("file", format!("`{relative}` is not UTF-8 text")))?;
    let mut out = json!({"name": skill.name, "file": relative, "content": content});
    if file.is_none() {
        out["skill"] = summary(skill);
        out["files"] = json!(skill_files(&skill.dir).map_err(|e| skill_error(e, "name"))?);
    }
    Ok(out)
}

#[async_trait]
impl Tool for SkillView {
    type Args = SkillViewArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::SKILL_VIEW
    }

    fn description(&self) -> &str {
        "Loads a skill: its instructions (SKILL.md or prompt.md) with its summary and file list, \
         or, with `file`, one file inside the skill's folder. Returns {name, file, content, \
         skill?, files?}."
    }

    async fn run(&self, ctx: &ToolContext, args: SkillViewArgs) -> Result<Value, ToolError> {
        view(ctx, &args.name, args.file.as_deref(), "name").await
    }
}
