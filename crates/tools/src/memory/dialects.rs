//! The dialect shapes of the memory tool: PicoBot `memory_store`, `memory_recall` and
//! `memory_forget`, and CeeCore `search_memory` with its `{results, total}` answer.

use super::args::{MemoryAction, MemoryArgs};
use crate::dialect::DialectArgs;
use crate::error::ToolError;
use chrono::{DateTime, SecondsFormat};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

/// The category PicoBot's memories are filed under.
const PICOBOT_CATEGORY: &str = "knowledge";

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MemoryStoreArgs {
    /// Unique key of the memory; storing under an existing key overwrites its value.
    #[schemars(length(min = 1, max = 200))]
    key: String,
    /// What to remember.
    #[schemars(length(min = 1, max = 10000))]
    content: String,
    /// Importance, 0.0 to 1.0 (default 0.5).
    #[schemars(range(min = 0.0, max = 1.0))]
    importance: Option<f64>,
}

impl DialectArgs for MemoryStoreArgs {
    type Canonical = MemoryArgs;

    fn into_canonical(self) -> Result<MemoryArgs, ToolError> {
        let mut args = MemoryArgs::new(MemoryAction::Add);
        args.key = Some(self.key);
        args.content = Some(self.content);
        args.importance = self.importance;
        args.dialect.category = Some(PICOBOT_CATEGORY.to_string());
        Ok(args)
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MemoryRecallArgs {
    /// Space-separated keywords; a memory matching more of them ranks higher.
    #[schemars(length(min = 1, max = 500))]
    query: String,
    /// Only memories written at or after this time (unix milliseconds).
    #[schemars(range(min = 0))]
    since: Option<i64>,
    /// Only memories written at or before this time (unix milliseconds).
    #[schemars(range(min = 0))]
    until: Option<i64>,
    /// How many results (default 10, at most 50).
    #[schemars(range(min = 1, max = 50))]
    limit: Option<usize>,
}

impl DialectArgs for MemoryRecallArgs {
    type Canonical = MemoryArgs;

    fn into_canonical(self) -> Result<MemoryArgs, ToolError> {
        let mut args = MemoryArgs::new(MemoryAction::Search);
        args.query = Some(self.query);
        args.dialect.since = self.since;
        args.dialect.until = self.until;
        args.dialect.limit = self.limit;
        Ok(args)
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MemoryForgetArgs {
    /// Key of the memory to delete.
    #[schemars(length(min = 1, max = 200))]
    key: String,
}

impl DialectArgs for MemoryForgetArgs {
    type Canonical = MemoryArgs;

    fn into_canonical(self) -> Result<MemoryArgs, ToolError> {
        let mut args = MemoryArgs::new(MemoryAction::Remove);
        args.key = Some(self.key);
        Ok(args)
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchMemoryArgs {
    /// Search keywords.
    #[schemars(length(min = 1, max = 500))]
    query: String,
    /// How many results (default 10, at most 50).
    #[schemars(range(min = 1, max = 50))]
    limit: Option<usize>,
    /// Only memories of this category (e.g. `preference`).
    #[schemars(length(min = 1, max = 64))]
    category: Option<String>,
}

impl DialectArgs for SearchMemoryArgs {
    type Canonical = MemoryArgs;

    fn into_canonical(self) -> Result<MemoryArgs, ToolError> {
        let mut args = MemoryArgs::new(MemoryAction::Search);
        args.query = Some(self.query);
        args.dialect.limit = self.limit;
        args.dialect.category = self.category;
        Ok(args)
    }

    /// `{results: [{content, category, timestamp (RFC 3339, UTC)}], total}`.
    fn reshape(result: Value) -> Value {
        let results: Vec<Value> = result["results"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .map(|memory| {
                let timestamp = memory["updated_at"]
                    .as_i64()
                    .and_then(DateTime::from_timestamp_millis)
                    .map(|at| at.to_rfc3339_opts(SecondsFormat::Secs, true));
                json!({
                    "content": memory["content"],
                    "category": memory["category"],
                    "timestamp": timestamp,
                })
            })
            .collect();
        json!({ "results": results, "total": result["total"] })
    }
}
