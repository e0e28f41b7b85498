//! `skills_list` (Hearth, Echo) and PicoBot's `get_skill` (`list` and `get`).

use super::view::view;
use super::{library, summary};
use crate::error::ToolError;
use crate::tool::{CallFacts, Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

/// `skills_list`.
pub struct SkillsList;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkillsListArgs {}

/// The listing both tools return.
async fn listing(ctx: &ToolContext) -> Result<Value, ToolError> {
    let library = library(ctx).await?;
    let skills: Vec<Value> = library.skills.iter().map(summary).collect();
    let broken: Vec<Value> = library
        .broken
        .iter()
        .map(|b| json!({"folder": b.folder, "source": b.source, "reason": b.reason}))
        .collect();
    let mut out = json!({"skills": skills, "broken": broken});
    if let Some(folder) = &library.untrusted_project {
        out["untrusted_project_skills"] = json!(format!(
            "{} holds project skills, used once the user trusts this folder",
            folder.display()
        ));
    }
    Ok(out)
}

#[async_trait]
impl Tool for SkillsList {
    type Args = SkillsListArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::SKILLS_LIST
    }

    fn description(&self) -> &str {
        "Lists the installed skills: {skills: [{name, description, format, source, dialect, \
         declares}], broken: [{folder, source, reason}]}. Load one with skill_view."
    }

    async fn run(&self, ctx: &ToolContext, _args: SkillsListArgs) -> Result<Value, ToolError> {
        listing(ctx).await
    }
}

/// PicoBot's `get_skill`.
pub struct GetSkill;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GetSkillAction {
    Get,
    List,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetSkillArgs {
    /// `list` the skills, or `get` one skill's instructions.
    pub action: GetSkillAction,
    /// The skill, for `get`.
    pub skill_name: Option<String>,
}

#[async_trait]
impl Tool for GetSkill {
    type Args = GetSkillArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::SKILL_VIEW
    }

    fn name(&self) -> &str {
        "get_skill"
    }

    fn description(&self) -> &str {
        "Skills: action `list` returns {skills, broken}; action `get` with skill_name returns \
         that skill's instructions {name, file, content, files}."
    }

    async fn call_facts(&self, _args: &GetSkillArgs) -> CallFacts {
        CallFacts::read_only()
    }

    async fn run(&self, ctx: &ToolContext, args: GetSkillArgs) -> Result<Value, ToolError> {
        match args.action {
            GetSkillAction::List => listing(ctx).await,
            GetSkillAction::Get => {
                let name = args.skill_name.ok_or_else(|| {
                    ToolError::invalid("skill_name", "`skill_name` is required for `get`")
                })?;
                view(ctx, &name, None, "skill_name").await
            }
        }
    }
}
