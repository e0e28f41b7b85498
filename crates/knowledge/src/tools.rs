//! `knowledge_index` (action `status` / `rebuild`) and `knowledge_search` (query,
//! max_results): the knowledge base as tools, for the hearth and echo dialects.

use std::time::Duration;

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_tools::{
    CallFacts, Dialect, ErrorKind, Registry, RegistryError, Tool, ToolContext, ToolError,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::KnowledgeError;
use crate::index::Knowledge;

/// How long `rebuild` waits for its pass before answering that it goes on in the background.
const REBUILD_WAIT: Duration = Duration::from_secs(20);

/// Registers `knowledge_index` and `knowledge_search` over `knowledge`.
pub fn register_knowledge(
    registry: &mut Registry,
    knowledge: &Knowledge,
) -> Result<(), RegistryError> {
    use Dialect::{Echo, Hearth};
    registry.register_for(&[Hearth, Echo], KnowledgeIndex(knowledge.clone()))?;
    registry.register_for(&[Hearth, Echo], KnowledgeSearch(knowledge.clone()))?;
    Ok(())
}

struct KnowledgeIndex(Knowledge);

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum IndexAction {
    /// Files, chunks, last indexed, errors per file, and the running pass's progress.
    Status,
    /// Index what changed since the last pass (new, changed and deleted files).
    Rebuild,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KnowledgeIndexArgs {
    pub action: IndexAction,
}

/// A failure of the knowledge base as the model reads it: a missing or unreadable folder is
/// unavailable until the user acts; the index's own failures are internal.
fn internal(error: KnowledgeError) -> ToolError {
    if error.retryable() {
        ToolError::internal(error.to_string())
    } else {
        ToolError::new(ErrorKind::Unavailable, error.to_string())
    }
}

#[async_trait]
impl Tool for KnowledgeIndex {
    type Args = KnowledgeIndexArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::KNOWLEDGE_INDEX
    }

    fn description(&self) -> &str {
        "The user's local knowledge base (their knowledge folders): `status` says how many files \
         and chunks are indexed, when, and which files could not be read; `rebuild` indexes what \
         changed (it is also kept up to date while Hearth runs)."
    }

    async fn call_facts(&self, args: &KnowledgeIndexArgs) -> CallFacts {
        match args.action {
            IndexAction::Status => CallFacts::read_only(),
            IndexAction::Rebuild => CallFacts::of(self.entry()),
        }
    }

    async fn run(&self, _ctx: &ToolContext, args: KnowledgeIndexArgs) -> Result<Value, ToolError> {
        let mut out = json!({});
        if args.action == IndexAction::Rebuild {
            let knowledge = self.0.clone();
            let pass = tokio::spawn(async move { knowledge.index().await });
            out = match tokio::time::timeout(REBUILD_WAIT, pass).await {
                Ok(Ok(Ok(report))) => json!({"rebuild": "done", "report": report}),
                Ok(Ok(Err(error))) => return Err(internal(error)),
                Ok(Err(join)) => return Err(internal(join.into())),
                Err(_) => json!({"rebuild": "running in the background; call status for progress"}),
            };
        }
        let status = self.0.status().await.map_err(internal)?;
        out["status"] = serde_json::to_value(status)
            .map_err(|e| ToolError::internal(format!("the status could not be encoded: {e}")))?;
        Ok(out)
    }
}

struct KnowledgeSearch(Knowledge);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KnowledgeSearchArgs {
    /// Words to look for (English, Chinese or both; one or two Chinese characters work).
    #[schemars(length(min = 1, max = 500))]
    pub query: String,
    /// How many snippets (default 5, at most 50).
    #[schemars(range(min = 1, max = 50))]
    pub max_results: Option<usize>,
}

#[async_trait]
impl Tool for KnowledgeSearch {
    type Args = KnowledgeSearchArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::KNOWLEDGE_SEARCH
    }

    fn description(&self) -> &str {
        "Search the user's local knowledge base (documents in their knowledge folders): the best \
         matching snippets, each with its citation (file and page, slide, sheet or line range). \
         Cite what you use as given in `citation`."
    }

    async fn run(&self, _ctx: &ToolContext, args: KnowledgeSearchArgs) -> Result<Value, ToolError> {
        let query = args.query.trim();
        if query.is_empty() {
            return Err(ToolError::invalid("query", "`query` must not be blank"));
        }
        let limit = args.max_results.unwrap_or(5);
        let results = self.0.search(query, limit).await.map_err(internal)?;
        let mut out = json!({"query": query, "count": results.len(), "results": results});
        if results.is_empty() {
            let status = self.0.status().await.map_err(internal)?;
            if status.files == 0 {
                return Err(ToolError::new(
                    ErrorKind::Unavailable,
                    format!(
                        "the knowledge base is empty: no files are indexed from {} (add documents \
                         there or folders in Settings → Knowledge, then knowledge_index rebuild)",
                        status.folders.join(", ")
                    ),
                ));
            }
            out["note"] = "nothing matched; try other or fewer words".into();
        }
        Ok(out)
    }
}
