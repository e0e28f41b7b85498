//! `skill_manage`: create, edit, patch or delete a user skill, or write or remove a file inside
//! one; every path is confined to that skill's folder, and a change that leaves the skill
//! unloadable is undone.

use super::{find, library, skill_error};
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_skills::{check_name, load_skill, resolve_inside, resolve_new_inside, Source};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// `skill_manage`.
pub struct SkillManage;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ManageAction {
    Create,
    Edit,
    Patch,
    Delete,
    WriteFile,
    RemoveFile,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkillManageArgs {
    /// `create` (a new skill from `content`, its SKILL.md), `edit` (replace the instructions
    /// with `content`), `patch` (replace `old_string` by `new_string` in the instructions or
    /// `file_path`), `delete` (the whole skill), `write_file` / `remove_file` (`file_path`).
    pub action: ManageAction,
    /// The skill's name.
    #[schemars(length(min = 1, max = 64))]
    pub name: String,
    /// The new text, for `create`, `edit` and `write_file`.
    pub content: Option<String>,
    /// A file inside the skill, relative to its folder.
    pub file_path: Option<String>,
    /// The exact text to replace (once), for `patch`.
    pub old_string: Option<String>,
    /// Its replacement, for `patch`.
    pub new_string: Option<String>,
}

fn need<T>(value: Option<T>, field: &str, action: &str) -> Result<T, ToolError> {
    value.ok_or_else(|| ToolError::invalid(field, format!("`{field}` is required for `{action}`")))
}

fn io_error(path: &Path, e: std::io::Error) -> ToolError {
    ToolError::internal(format!("{}: {e}", path.display()))
}

/// Writes `content` to `path`, then checks the skill still loads; if not, restores what was
/// there (or removes the new file) and says why.
async fn write_checked(dir: &Path, path: &Path, content: &str) -> Result<(), ToolError> {
    let before = tokio::fs::read(path).await.ok();
    tokio::fs::write(path, content)
        .await
        .map_err(|e| io_error(path, e))?;
    let check_dir = dir.to_path_buf();
    let loaded = tokio::task::spawn_blocking(move || load_skill(&check_dir, Source::User))
        .await
        .map_err(|e| ToolError::internal(e.to_string()))?;
    if let Err(error) = loaded {
        let restored = match before {
            Some(bytes) => tokio::fs::write(path, bytes).await,
            None => tokio::fs::remove_file(path).await,
        };
        restored.map_err(|e| io_error(path, e))?;
        return Err(ToolError::invalid(
            "content",
            format!("the skill would not load, so nothing changed: {error}"),
        ));
    }
    Ok(())
}

#[async_trait]
impl Tool for SkillManage {
    type Args = SkillManageArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::SKILL_MANAGE
    }

    fn description(&self) -> &str {
        "Changes skills: create (content = the new SKILL.md), edit (replace the instructions), \
         patch (old_string → new_string, once), delete, write_file / remove_file (file_path \
         inside the skill). Paths never leave the skill's folder; a change that would leave the \
         skill broken is undone."
    }

    async fn run(&self, ctx: &ToolContext, args: SkillManageArgs) -> Result<Value, ToolError> {
        match args.action {
            ManageAction::Create => {
                create(ctx, &args.name, need(args.content, "content", "create")?).await
            }
            ManageAction::Edit => {
                let (dir, instructions) = located(ctx, &args.name).await?;
                let content = need(args.content, "content", "edit")?;
                write_checked(&dir, &dir.join(instructions), &content).await?;
                Ok(json!({"name": args.name, "edited": instructions}))
            }
            ManageAction::Patch => {
                let (dir, instructions) = located(ctx, &args.name).await?;
                let relative = args.file_path.as_deref().unwrap_or(instructions);
                let path =
                    resolve_inside(&dir, relative).map_err(|e| skill_error(e, "file_path"))?;
                let old = need(args.old_string, "old_string", "patch")?;
                let new = need(args.new_string, "new_string", "patch")?;
                let text = tokio::fs::read_to_string(&path)
                    .await
                    .map_err(|e| io_error(&path, e))?;
                match text.matches(&old).count() {
                    1 => {}
                    0 => {
                        return Err(ToolError::new(
                            ErrorKind::NotFound,
                            format!("`old_string` does not occur in {relative}"),
                        ))
                    }
                    n => {
                        return Err(ToolError::invalid(
                            "old_string",
                            format!("`old_string` occurs {n} times in {relative}; make it unique"),
                        ))
                    }
                }
                write_checked(&dir, &path, &text.replacen(&old, &new, 1)).await?;
                Ok(json!({"name": args.name, "patched": relative}))
            }
            ManageAction::Delete => {
                let (dir, _) = located(ctx, &args.name).await?;
                tokio::fs::remove_dir_all(&dir)
                    .await
                    .map_err(|e| io_error(&dir, e))?;
                Ok(json!({"name": args.name, "deleted": true}))
            }
            ManageAction::WriteFile => {
                let (dir, _) = located(ctx, &args.name).await?;
                let relative = need(args.file_path, "file_path", "write_file")?;
                let content = need(args.content, "content", "write_file")?;
                let path =
                    resolve_new_inside(&dir, &relative).map_err(|e| skill_error(e, "file_path"))?;
                write_checked(&dir, &path, &content).await?;
                Ok(json!({"name": args.name, "written": relative, "bytes": content.len()}))
            }
            ManageAction::RemoveFile => {
                let (dir, _) = located(ctx, &args.name).await?;
                let relative = need(args.file_path, "file_path", "remove_file")?;
                let path =
                    resolve_inside(&dir, &relative).map_err(|e| skill_error(e, "file_path"))?;
                if is_definition(&dir, &path) {
                    return Err(ToolError::invalid(
                        "file_path",
                        format!("`{relative}` defines the skill; delete the skill instead"),
                    ));
                }
                if path.is_dir() {
                    return Err(ToolError::invalid(
                        "file_path",
                        format!("`{relative}` is a folder"),
                    ));
                }
                tokio::fs::remove_file(&path)
                    .await
                    .map_err(|e| io_error(&path, e))?;
                Ok(json!({"name": args.name, "removed": relative}))
            }
        }
    }
}

/// The folder and instructions file of the installed skill `name`.
async fn located(ctx: &ToolContext, name: &str) -> Result<(PathBuf, &'static str), ToolError> {
    let library = library(ctx).await?;
    let skill = find(&library, name)?;
    Ok((skill.dir.clone(), skill.instructions))
}

/// Whether `path` is one of the files that define a skill.
fn is_definition(dir: &Path, path: &Path) -> bool {
    ["SKILL.md", "prompt.md", "manifest.json"]
        .iter()
        .any(|f| dir.join(f) == path)
}

/// A new user skill `<data dir>/skills/<name>/SKILL.md`; nothing is left if it does not load.
async fn create(ctx: &ToolContext, name: &str, content: String) -> Result<Value, ToolError> {
    check_name(name).map_err(|m| ToolError::invalid("name", format!("`{name}` {m}")))?;
    let root = ctx.data_dir.join("skills");
    let dir: PathBuf = root.join(name);
    if tokio::fs::symlink_metadata(&dir).await.is_ok() {
        return Err(ToolError::invalid(
            "name",
            format!("a skill folder `{name}` already exists; use edit"),
        ));
    }
    tokio::fs::create_dir_all(&dir)
        .await
        .map_err(|e| io_error(&dir, e))?;
    let file = dir.join("SKILL.md");
    let written = async {
        tokio::fs::write(&file, &content)
            .await
            .map_err(|e| io_error(&file, e))?;
        let check = dir.clone();
        tokio::task::spawn_blocking(move || load_skill(&check, Source::User))
            .await
            .map_err(|e| ToolError::internal(e.to_string()))?
            .map_err(|e| ToolError::invalid("content", format!("the skill would not load: {e}")))
    };
    match written.await {
        Ok(skill) => Ok(json!({"name": skill.name, "created": dir.display().to_string()})),
        Err(error) => {
            tokio::fs::remove_dir_all(&dir)
                .await
                .map_err(|e| io_error(&dir, e))?;
            Err(error)
        }
    }
}
