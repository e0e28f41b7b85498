//! `artifact_finalize` (artifact_id): checks the artifact is well-formed, then makes it final in
//! one step (its file renamed into place); nothing can be appended afterwards.

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_store::ArtifactState;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::{artifact_file, describe, finalized, measure, Book};
use crate::db;
use crate::error::ToolError;
use crate::tool::{Tool, ToolContext};

pub(super) struct Finalize(pub(super) Book);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtifactFinalizeArgs {
    /// The id `artifact_create` returned.
    #[schemars(length(min = 1, max = 100))]
    pub artifact_id: String,
}

#[async_trait]
impl Tool for Finalize {
    type Args = ArtifactFinalizeArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::ARTIFACT_FINALIZE
    }

    fn description(&self) -> &str {
        "Finish an artifact once every chunk is appended: it is checked (Markdown, JSON or CSV \
         must be well-formed) and made final; nothing can be appended afterwards."
    }

    async fn run(&self, ctx: &ToolContext, args: ArtifactFinalizeArgs) -> Result<Value, ToolError> {
        let artifact = self
            .0
            .of_session(&ctx.session_id, &args.artifact_id)
            .await?;
        if artifact.state == ArtifactState::Final {
            return Err(finalized(&artifact));
        }
        if artifact.chunks == 0 {
            return Err(ToolError::invalid(
                "artifact_id",
                format!(
                    "artifact {} is empty: append its content (sequence 0 first) before \
                     finalizing",
                    artifact.id
                ),
            ));
        }
        let content = self.0.content(&ctx.data_dir, &artifact).await?;
        let stats = measure(&artifact.filename, &content);
        if let Some(error) = &stats.format.error {
            return Err(ToolError::invalid(
                "artifact_id",
                format!(
                    "artifact {} is not well-formed {} (line {}: {}); append nothing more to a \
                     broken artifact: create a new one with the corrected content",
                    artifact.id, stats.format.kind, error.line, error.message
                ),
            ));
        }
        let part = artifact_file(&ctx.data_dir, &artifact);
        let done = hearth_store::Artifact {
            state: ArtifactState::Final,
            ..artifact.clone()
        };
        let target = artifact_file(&ctx.data_dir, &done);
        tokio::fs::rename(&part, &target)
            .await
            .map_err(|e| ToolError::internal(format!("the artifact cannot be finalized: {e}")))?;
        let id = artifact.id.clone();
        match db::write(&self.0.db, move |s| s.finalize_artifact(&id)).await {
            Ok(Some(final_artifact)) => {
                let mut out = describe(&final_artifact);
                out["status"] = "finalized".into();
                out["stats"] =
                    serde_json::to_value(&stats).map_err(|e| ToolError::internal(e.to_string()))?;
                Ok(out)
            }
            outcome => {
                // Put the file back so the ledger and the file agree.
                if let Err(error) = tokio::fs::rename(&target, &part).await {
                    tracing::warn!(%error, "cannot restore an artifact's part file");
                }
                match outcome {
                    Err(error) => Err(error),
                    _ => Err(finalized(&artifact)),
                }
            }
        }
    }
}
