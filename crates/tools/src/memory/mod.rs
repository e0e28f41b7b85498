//! The memory tools over the store: Echo/hearth `memory` with every action,
//! PicoBot `memory_store` / `memory_recall` / `memory_forget` and CeeCore `search_memory`.

mod actions;
mod args;
mod dialects;

use crate::dialect::{Dialect, DialectTool};
use crate::error::ToolError;
use crate::registry::{Registry, RegistryError};
use crate::tool::{CallFacts, Tool, ToolContext};
use args::{MemoryAction, MemoryArgs};
use async_trait::async_trait;
use dialects::{MemoryForgetArgs, MemoryRecallArgs, MemoryStoreArgs, SearchMemoryArgs};
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_store::Db;
use serde_json::Value;

/// The canonical `memory` tool.
pub(crate) struct MemoryTool {
    db: Db,
}

#[async_trait]
impl Tool for MemoryTool {
    type Args = MemoryArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::MEMORY
    }

    fn description(&self) -> &str {
        "Long-term memory shared by every session: add, replace, remove, search and list \
         memories, and resolve contradictions between them. Keep stable facts, preferences and \
         decisions (one per memory), not the conversation itself. Mark what the user said \
         `user_stated`: it outranks what you inferred. Pinned memories are always in your \
         instructions."
    }

    /// Searching and listing only read; the other actions change the memories.
    async fn call_facts(&self, args: &MemoryArgs) -> CallFacts {
        match args.action {
            MemoryAction::Search | MemoryAction::List | MemoryAction::ListContradictions => {
                CallFacts::read_only()
            }
            MemoryAction::Add
            | MemoryAction::Replace
            | MemoryAction::Remove
            | MemoryAction::ResolveContradiction => CallFacts::of(self.entry()),
        }
    }

    async fn run(&self, _ctx: &ToolContext, args: MemoryArgs) -> Result<Value, ToolError> {
        actions::run(&self.db, args).await
    }
}

/// Registers the memory tools of `registry`'s dialect: `memory` (hearth, echo),
/// `memory_store` / `memory_recall` / `memory_forget` (picobot), `search_memory` (ceecore), over
/// `db` (the app's, so their writes queue with its other writes).
pub fn register_memory(registry: &mut Registry, db: impl Into<Db>) -> Result<(), RegistryError> {
    use Dialect::{Ceecore, Echo, Hearth, Picobot};
    let db = db.into();
    let tool = || MemoryTool { db: db.clone() };
    registry.register_for(&[Hearth, Echo], tool())?;
    registry.register_for(
        &[Picobot],
        DialectTool::<_, MemoryStoreArgs>::new(
            "memory_store",
            "Stores a long-term memory under a unique key; storing again under the same key \
             overwrites the old value.",
            tool(),
        ),
    )?;
    registry.register_for(
        &[Picobot],
        DialectTool::<_, MemoryRecallArgs>::new(
            "memory_recall",
            "Full-text search of long-term memories by space-separated keywords (Chinese needs \
             no spaces), best matches first, optionally only those written between since and \
             until (unix milliseconds).",
            tool(),
        ),
    )?;
    registry.register_for(
        &[Picobot],
        DialectTool::<_, MemoryForgetArgs>::new(
            "memory_forget",
            "Deletes the long-term memory stored under a key.",
            tool(),
        ),
    )?;
    registry.register_for(
        &[Ceecore],
        DialectTool::<_, SearchMemoryArgs>::new(
            "search_memory",
            "Searches the device's memory by keywords, most relevant first; optionally only one \
             category. Returns {results: [{content, category, timestamp}], total}.",
            tool(),
        ),
    )?;
    Ok(())
}
