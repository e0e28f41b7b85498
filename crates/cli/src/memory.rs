//! `hearth-cli memory list|search|add|remove`: long-term memories in the store (the same ones
//! the `memory` tools and the desktop's Memory page use).

use std::process::ExitCode;

use anyhow::anyhow;
use clap::Subcommand;
use hearth_store::{
    AddAction, Memory, MemoryFilter, MemorySelector, MemorySource, MemoryTarget, NewMemory,
    Selected, MAX_MEMORY_RESULTS,
};
use serde_json::json;

use crate::pipe::outln;
use crate::setup::open_home;

#[derive(Debug, Subcommand)]
pub enum MemoryCommand {
    /// Memories, pinned first, then the most recently written.
    List {
        #[arg(long, default_value_t = 20)]
        limit: usize,
        #[arg(long, default_value_t = 0)]
        offset: usize,
        #[arg(long)]
        json: bool,
    },
    /// Full-text search (English and Chinese), ranked by relevance × importance, pinned first.
    Search {
        query: String,
        #[arg(long, default_value_t = 10)]
        limit: usize,
        #[arg(long)]
        json: bool,
    },
    /// Remember something (an existing `--key` is overwritten).
    Add {
        content: String,
        #[arg(long)]
        key: Option<String>,
        /// Comma-separated tags.
        #[arg(long, value_delimiter = ',')]
        tags: Option<Vec<String>>,
        /// 0 to 1 (default 0.5).
        #[arg(long)]
        importance: Option<f64>,
        #[arg(long)]
        pinned: bool,
        /// user or environment.
        #[arg(long, default_value = "user")]
        target: String,
        #[arg(long)]
        category: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Forget a memory by id, or by `--key`.
    Remove {
        /// The memory's id (see `memory list`).
        #[arg(required_unless_present = "key", conflicts_with = "key")]
        id: Option<i64>,
        #[arg(long)]
        key: Option<String>,
        #[arg(long)]
        json: bool,
    },
}

fn check_limit(limit: usize) -> anyhow::Result<usize> {
    if (1..=MAX_MEMORY_RESULTS).contains(&limit) {
        Ok(limit)
    } else {
        Err(anyhow!("--limit {limit}: use 1 to {MAX_MEMORY_RESULTS}"))
    }
}

pub fn run(command: MemoryCommand) -> anyhow::Result<ExitCode> {
    let home = open_home()?;
    let store = &home.store;
    match command {
        MemoryCommand::List {
            limit,
            offset,
            json,
        } => {
            let page =
                store.list_memories(&MemoryFilter::default(), offset, check_limit(limit)?)?;
            print_memories(&page.memories, page.total, json)?;
        }
        MemoryCommand::Search { query, limit, json } => {
            if query.trim().is_empty() {
                return Err(anyhow!("the query is empty: pass words to search for"));
            }
            let page =
                store.search_memories(&query, &MemoryFilter::default(), check_limit(limit)?)?;
            print_memories(&page.memories, page.total, json)?;
        }
        MemoryCommand::Add {
            content,
            key,
            tags,
            importance,
            pinned,
            target,
            category,
            json,
        } => {
            if importance.is_some_and(|i| !(0.0..=1.0).contains(&i)) {
                return Err(anyhow!("--importance must be between 0 and 1"));
            }
            let target = MemoryTarget::parse(&target)
                .ok_or_else(|| anyhow!("--target {target}: use user or environment"))?;
            let outcome = store.add_memory(&NewMemory {
                key,
                tags,
                importance,
                pinned: pinned.then_some(true),
                target,
                category,
                ..NewMemory::new(content, MemorySource::UserStated)
            })?;
            let action = match outcome.action {
                AddAction::Added => "added",
                AddAction::Overwritten => "overwritten",
                AddAction::Duplicate => "duplicate",
                AddAction::HeldBack => "held_back",
            };
            if json {
                let value = json!({"action": action, "memory": outcome.memory});
                outln!("{}", serde_json::to_string_pretty(&value)?);
            } else {
                outln!("{action}\t{}", memory_line(&outcome.memory));
            }
        }
        MemoryCommand::Remove { id, key, json } => {
            let selector = match (&key, id) {
                (Some(key), _) => MemorySelector::Key(key),
                (None, Some(id)) => MemorySelector::Id(id),
                (None, None) => return Err(anyhow!("name the memory: an id or --key")),
            };
            let memory = match store.remove_memory(selector)? {
                Selected::Found(memory) => memory,
                Selected::Missing => {
                    return Err(anyhow!(
                    "no such memory; find its id with `hearth-cli memory list` or `memory search`"
                ))
                }
                Selected::Ambiguous { count, .. } => {
                    return Err(anyhow!("{count} memories match; remove one by id"))
                }
            };
            if json {
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&json!({"removed": memory}))?
                );
            } else {
                outln!("removed\t{}", memory_line(&memory));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_memories(memories: &[Memory], total: usize, json: bool) -> anyhow::Result<()> {
    if json {
        let value = json!({"memories": memories, "total": total});
        outln!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(());
    }
    if memories.is_empty() {
        outln!("no memories found");
    }
    for memory in memories {
        outln!("{}", memory_line(memory));
    }
    Ok(())
}

/// `#id  [pinned]  importance  key  content`.
fn memory_line(memory: &Memory) -> String {
    format!(
        "#{}\t{}\t{:.2}\t{}\t{}",
        memory.id,
        if memory.pinned { "pinned" } else { "-" },
        memory.importance,
        memory.key.as_deref().unwrap_or("-"),
        memory.content.replace('\n', " ")
    )
}
