//! `skill_install`'s two confirmations in the conversation, once the skill is unpacked and
//! validated and before anything lands: its name, description, declaration and own tools; then,
//! only when `run_install` asks for it, its install script, approved on its own. With nobody to
//! ask (no window or terminal), the call's approval stands for the first; an install script is
//! then never run.

use hearth_policy::{Declaration, SkillPermission};
use hearth_skills::Skill;
use std::time::Duration;

use crate::conversation::{Question, Reply};
use crate::error::{ErrorKind, ToolError};
use crate::exec::{run_script, Script};
use crate::tool::ToolContext;

const INSTALL: &str = "Install";
const RUN: &str = "Run the install script";
const CANCEL: &str = "Cancel";
/// How long an install script may run.
const SCRIPT_TIMEOUT: Duration = Duration::from_secs(300);

/// Where a skill's install script may be: the file its manifest's `install` field (or its front
/// matter's `metadata.install`) names, else the first of these that exists.
const SCRIPT_FILES: [&str; 4] = [
    "scripts/install.sh",
    "scripts/install.py",
    "install.sh",
    "install.py",
];

/// The skill's install script, relative to its folder.
pub(super) fn install_script(skill: &Skill) -> Option<String> {
    let named = skill
        .fields
        .get("install")
        .or_else(|| skill.fields.get("metadata").and_then(|m| m.get("install")))
        .and_then(|v| v.as_str())
        .map(str::to_string);
    named.or_else(|| {
        SCRIPT_FILES
            .iter()
            .find(|f| skill.dir.join(f).is_file())
            .map(|f| f.to_string())
    })
}

/// What the skill may use, for the user.
fn declaration(skill: &Skill) -> String {
    match &skill.grant.declaration {
        Declaration::None => "no declaration (the chat's usual permissions)".into(),
        Declaration::Permissions(list) if list.is_empty() => "permissions: none".into(),
        Declaration::Permissions(list) => {
            let names: Vec<&str> = list.iter().copied().map(SkillPermission::as_str).collect();
            format!("permissions: {}", names.join(", "))
        }
        Declaration::AllowedTools(tools) => format!("allowed-tools: {}", tools.join(" ")),
    }
}

async fn ask(ctx: &ToolContext, question: String, yes: &str) -> Result<bool, ToolError> {
    let Some(conversation) = &ctx.conversation else {
        return Ok(false);
    };
    let options = vec![yes.to_string(), CANCEL.to_string()];
    match conversation.ask(Question { question, options }).await {
        Reply::Answered(answer) => Ok(answer == yes),
        Reply::NoAnswer | Reply::Unavailable => Ok(false),
    }
}

/// The user's review of the staged skill; `Ok(())` to install it.
pub(super) async fn review(ctx: &ToolContext, skill: &Skill) -> Result<(), ToolError> {
    if ctx.conversation.is_none() {
        return Ok(());
    }
    let tools: Vec<&str> = skill.tools.iter().map(|t| t.name.as_str()).collect();
    let mut question = format!(
        "Install the skill `{}`?\n\n{}\n\nIt declares {}.",
        skill.name,
        skill.description,
        declaration(skill)
    );
    if !tools.is_empty() {
        question.push_str(&format!(" Its own tools: {}.", tools.join(", ")));
    }
    if ask(ctx, question, INSTALL).await? {
        Ok(())
    } else {
        Err(ToolError::new(
            ErrorKind::NotPermitted,
            format!("the user did not install the skill `{}`", skill.name),
        ))
    }
}

/// Runs the installed skill's install script once the user approved it on its own; the result,
/// or why it did not run.
pub(super) async fn run_install(
    ctx: &ToolContext,
    skill: &Skill,
) -> Result<serde_json::Value, ToolError> {
    let Some(script) = install_script(skill) else {
        return Err(ToolError::invalid(
            "run_install",
            format!(
                "the skill `{}` has no install script (its manifest's `install`, or {})",
                skill.name,
                SCRIPT_FILES.join(", ")
            ),
        ));
    };
    if ctx.conversation.is_none() {
        return Err(ToolError::new(
            ErrorKind::NotPermitted,
            "an install script runs only once the user approves it, and nobody is here to ask",
        ));
    }
    let question = format!(
        "Run the install script `{script}` of the skill `{}`? It runs in the skill's folder and \
         may write only there and in its own temporary folder.",
        skill.name
    );
    if !ask(ctx, question, RUN).await? {
        return Err(ToolError::new(
            ErrorKind::NotPermitted,
            format!("the user did not run the install script `{script}`"),
        ));
    }
    let ran = Script {
        dir: &skill.dir,
        path: &script,
        args: Vec::new(),
        limit: SCRIPT_TIMEOUT,
        tool_args: None,
    };
    Ok(serde_json::Value::Object(run_script(ctx, ran).await?))
}
