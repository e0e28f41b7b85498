//! `timeline_recall` (PicoBot): searches the summaries written when sessions were
//! compacted or went idle.

use crate::db;
use crate::error::ToolError;
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_store::Db;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

/// Results without `limit`.
const DEFAULT_LIMIT: usize = 10;

pub(crate) struct TimelineRecall {
    pub(crate) db: Db,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct TimelineRecallArgs {
    /// Keywords; a summary matching more of them ranks higher (CJK text needs no spaces).
    #[schemars(length(min = 1, max = 500))]
    query: String,
    /// Only summaries of this session.
    #[schemars(length(min = 1, max = 300))]
    session_id: Option<String>,
    /// Only summaries written at or after this time (unix milliseconds).
    #[schemars(range(min = 0))]
    since: Option<i64>,
    /// Only summaries written at or before this time (unix milliseconds).
    #[schemars(range(min = 0))]
    until: Option<i64>,
    /// How many results (default 10, at most 50).
    #[schemars(range(min = 1, max = 50))]
    limit: Option<usize>,
}

#[async_trait]
impl Tool for TimelineRecall {
    type Args = TimelineRecallArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::TIMELINE_RECALL
    }

    fn description(&self) -> &str {
        "Searches the summaries of past conversations (written when a session was compacted or \
         went idle) by keywords, best matches first; each result names its session and the \
         messages it covers."
    }

    async fn run(&self, _ctx: &ToolContext, args: TimelineRecallArgs) -> Result<Value, ToolError> {
        if let (Some(since), Some(until)) = (args.since, args.until) {
            if until < since {
                return Err(ToolError::invalid("until", "is before `since`"));
            }
        }
        let limit = args.limit.unwrap_or(DEFAULT_LIMIT);
        let summaries = db::read(&self.db, move |s| {
            s.search_summaries(
                &args.query,
                args.session_id.as_deref(),
                args.since,
                args.until,
                limit,
            )
        })
        .await?;
        Ok(json!({ "results": summaries }))
    }
}
