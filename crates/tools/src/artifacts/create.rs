//! `artifact_create` (filename, title): a new empty artifact in the session's namespace, named
//! by an opaque id.

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::{describe, session_folder, Book};
use crate::db;
use crate::error::ToolError;
use crate::tool::{Tool, ToolContext};

pub(super) struct Create(pub(super) Book);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtifactCreateArgs {
    /// The deliverable's file name, e.g. `report.md`; its extension must be one of
    /// `artifacts.allowed_extensions`.
    #[schemars(length(min = 1, max = 200))]
    pub filename: String,
    /// A title shown with it.
    #[schemars(length(max = 200))]
    pub title: Option<String>,
}

#[async_trait]
impl Tool for Create {
    type Args = ArtifactCreateArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::ARTIFACT_CREATE
    }

    fn description(&self) -> &str {
        "Start a long deliverable (report, table, data file) to build in chunks: returns an \
         artifact_id. Then call artifact_append once per turn with sequence 0, 1, 2…, \
         artifact_validate to check it, artifact_finalize, and artifact_deliver to send it."
    }

    async fn run(&self, ctx: &ToolContext, args: ArtifactCreateArgs) -> Result<Value, ToolError> {
        let filename = self.checked_name(&args.filename)?;
        let title = args.title.unwrap_or_default().trim().to_string();
        let id = format!("art_{}", uuid::Uuid::new_v4().simple());
        let session = ctx.session_id.clone();
        let artifact = db::write(&self.0.db, {
            let id = id.clone();
            move |s| s.create_artifact(&id, &session, &filename, &title)
        })
        .await?;
        let folder = session_folder(&ctx.data_dir, &ctx.session_id).join(&id);
        tokio::fs::create_dir_all(&folder)
            .await
            .map_err(|e| ToolError::internal(format!("the artifact folder cannot be made: {e}")))?;
        let mut out = describe(&artifact);
        out["status"] = "created".into();
        Ok(out)
    }
}

impl Create {
    /// A plain file name (no folders, no control characters) with an allowed extension.
    fn checked_name(&self, raw: &str) -> Result<String, ToolError> {
        let name = raw.trim();
        let allowed = &self.0.settings.allowed_extensions;
        let plain = !name.is_empty()
            && !name.starts_with('.')
            && !name.chars().any(|c| {
                c.is_control() || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|')
            });
        if !plain {
            return Err(ToolError::invalid(
                "filename",
                format!(
                    "`{name}` is not a plain file name: give a name such as `report.md`, \
                     without folders or any of / \\ : * ? \" < > |"
                ),
            ));
        }
        let extension = name
            .rsplit_once('.')
            .map(|(_, ext)| ext.to_lowercase())
            .unwrap_or_default();
        if !allowed.iter().any(|a| a.eq_ignore_ascii_case(&extension)) {
            return Err(ToolError::invalid(
                "filename",
                format!(
                    "extension `{extension}` of `{name}` is not allowed; allowed: {} \
                     (artifacts.allowed_extensions)",
                    allowed.join(", ")
                ),
            ));
        }
        Ok(name.to_string())
    }
}
