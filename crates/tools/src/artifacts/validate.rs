//! `artifact_validate` (artifact_id): the artifact's counts and whether its format is
//! well-formed, with the first error's line.

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::{describe, measure, Book};
use crate::error::ToolError;
use crate::tool::{CallFacts, Tool, ToolContext};

pub(super) struct Validate(pub(super) Book);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtifactValidateArgs {
    /// The id `artifact_create` returned.
    #[schemars(length(min = 1, max = 100))]
    pub artifact_id: String,
}

#[async_trait]
impl Tool for Validate {
    type Args = ArtifactValidateArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::ARTIFACT_VALIDATE
    }

    fn description(&self) -> &str {
        "Check an artifact: counts its characters, CJK characters, English words, lines, \
         paragraphs and headings, and checks that Markdown, JSON or CSV is well-formed (giving \
         the first error's line)."
    }

    async fn call_facts(&self, _args: &ArtifactValidateArgs) -> CallFacts {
        CallFacts::read_only()
    }

    async fn run(&self, ctx: &ToolContext, args: ArtifactValidateArgs) -> Result<Value, ToolError> {
        let artifact = self
            .0
            .of_session(&ctx.session_id, &args.artifact_id)
            .await?;
        let content = self.0.content(&ctx.data_dir, &artifact).await?;
        let stats = measure(&artifact.filename, &content);
        let mut out = describe(&artifact);
        out["valid"] = stats.format.error.is_none().into();
        out["stats"] =
            serde_json::to_value(&stats).map_err(|e| ToolError::internal(e.to_string()))?;
        Ok(out)
    }
}
