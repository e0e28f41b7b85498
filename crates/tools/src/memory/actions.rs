//! What each action of the `memory` tool does, and the JSON it answers with.

use super::args::{MemoryAction, MemoryArgs, Tags};
use crate::db;
use crate::error::{ErrorKind, ToolError};
use hearth_store::{
    AddAction, AddOutcome, ContradictionStatus, Db, Memory, MemoryEdit, MemoryFilter,
    MemorySelector, MemorySource, MemoryTarget, NewMemory, Resolution, Selected,
    MAX_MEMORY_RESULTS,
};
use serde_json::{json, Value};

/// Results of `search` without a limit.
const DEFAULT_LIMIT: usize = 10;

pub(super) async fn run(db: &Db, args: MemoryArgs) -> Result<Value, ToolError> {
    args.reject_unused()?;
    match args.action {
        MemoryAction::Add => add(db, args).await,
        MemoryAction::Replace => replace(db, args).await,
        MemoryAction::Remove => remove(db, args).await,
        MemoryAction::Search => search(db, args).await,
        MemoryAction::List => list(db, args).await,
        MemoryAction::ListContradictions => list_contradictions(db).await,
        MemoryAction::ResolveContradiction => resolve(db, args).await,
    }
}

fn memory_json(memory: &Memory) -> Value {
    serde_json::to_value(memory).unwrap_or(Value::Null)
}

fn memories_json(memories: &[Memory]) -> Value {
    Value::Array(memories.iter().map(memory_json).collect())
}

async fn add(db: &Db, args: MemoryArgs) -> Result<Value, ToolError> {
    let content = args.required("content", args.content.as_ref())?.clone();
    let new = NewMemory {
        content,
        key: args.key,
        tags: args.tags.map(Tags::into_list),
        importance: args.importance,
        pinned: args.pinned,
        source: args.source.map_or(MemorySource::ModelInferred, Into::into),
        target: args.target.map_or(MemoryTarget::User, Into::into),
        category: args.dialect.category,
    };
    let outcome = db::write(db, move |s| s.add_memory(&new)).await?;
    Ok(add_result(&outcome))
}

fn add_result(outcome: &AddOutcome) -> Value {
    let status = match outcome.action {
        AddAction::Added => "added",
        AddAction::Overwritten => "overwritten",
        AddAction::Duplicate => "duplicate",
        AddAction::HeldBack => "held_back",
    };
    let mut result = json!({ "status": status, "memory": memory_json(&outcome.memory) });
    if let Some(previous) = &outcome.previous_content {
        result["previous_content"] = json!(previous);
    }
    let note = match (&outcome.contradiction, outcome.action) {
        (_, AddAction::Duplicate) => Some("this was already remembered".to_string()),
        (Some(c), AddAction::HeldBack) => Some(format!(
            "this contradicts user-stated memory {}, which outranks an inference: it is kept as \
             pending and not used unless contradiction {} is resolved in its favour",
            c.memory_a, c.id
        )),
        (Some(c), AddAction::Added) => Some(format!(
            "this contradicts memory {} ({}); both are kept until contradiction {} is resolved \
             (action resolve_contradiction)",
            c.memory_a, c.reason, c.id
        )),
        (Some(c), AddAction::Overwritten) => Some(c.reason.clone()),
        (None, _) => None,
    };
    if let Some(contradiction) = &outcome.contradiction {
        result["contradiction"] = json!(contradiction);
    }
    if let Some(note) = note {
        result["note"] = json!(note);
    }
    result
}

/// `key` or `old_text`, whichever was given (exactly one must be).
enum Named {
    Key(String),
    Text(String),
}

impl Named {
    fn of(args: &MemoryArgs) -> Result<Named, ToolError> {
        match (&args.key, &args.old_text) {
            (Some(key), None) => Ok(Named::Key(key.clone())),
            (None, Some(text)) => Ok(Named::Text(text.clone())),
            (Some(_), Some(_)) => Err(ToolError::invalid(
                "old_text",
                "give either `key` or `old_text`, not both",
            )),
            (None, None) => Err(ToolError::invalid(
                "key",
                format!(
                    "`key` or `old_text` is required for action `{}`",
                    args.action.as_str()
                ),
            )),
        }
    }

    fn selector(&self) -> MemorySelector<'_> {
        match self {
            Named::Key(key) => MemorySelector::Key(key),
            Named::Text(text) => MemorySelector::Containing(text),
        }
    }

    /// The error for a selector that found nothing or too much.
    fn unselected<T>(&self, selected: Selected<T>) -> Result<T, ToolError> {
        match (selected, self) {
            (Selected::Found(found), _) => Ok(found),
            (Selected::Missing, Named::Key(key)) => Err(ToolError::new(
                ErrorKind::NotFound,
                format!("no memory has the key {key:?}"),
            )),
            (Selected::Missing, Named::Text(text)) => Err(ToolError::new(
                ErrorKind::NotFound,
                format!("no memory contains {text:?}"),
            )),
            (Selected::Ambiguous { count, examples }, _) => {
                let listed: Vec<String> = examples
                    .iter()
                    .map(|m| format!("{}: {}", m.id, preview(&m.content)))
                    .collect();
                Err(ToolError::invalid(
                    "old_text",
                    format!(
                        "matches {count} memories ({}); give a longer piece of the one you mean",
                        listed.join("; ")
                    ),
                ))
            }
        }
    }
}

fn preview(text: &str) -> String {
    const CHARS: usize = 60;
    if text.chars().count() <= CHARS {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(CHARS).collect::<String>())
    }
}

async fn replace(db: &Db, args: MemoryArgs) -> Result<Value, ToolError> {
    let content = args.required("content", args.content.as_ref())?.clone();
    let named = Named::of(&args)?;
    let edit = MemoryEdit {
        content: Some(content),
        tags: args.tags.map(Tags::into_list),
        importance: args.importance,
        pinned: args.pinned,
    };
    let (selected, named) = db::write(db, move |s| {
        s.edit_memory(named.selector(), &edit)
            .map(|selected| (selected, named))
    })
    .await?;
    let (memory, previous) = named.unselected(selected)?;
    Ok(json!({
        "status": "replaced",
        "memory": memory_json(&memory),
        "previous_content": previous,
    }))
}

async fn remove(db: &Db, args: MemoryArgs) -> Result<Value, ToolError> {
    let named = Named::of(&args)?;
    let (selected, named) = db::write(db, move |s| {
        s.remove_memory(named.selector())
            .map(|selected| (selected, named))
    })
    .await?;
    let memory = named.unselected(selected)?;
    Ok(json!({ "status": "removed", "memory": memory_json(&memory) }))
}

fn filter(args: &MemoryArgs) -> Result<MemoryFilter, ToolError> {
    let options = &args.dialect;
    if let (Some(since), Some(until)) = (options.since, options.until) {
        if until < since {
            return Err(ToolError::invalid("until", "is before `since`"));
        }
    }
    Ok(MemoryFilter {
        since: options.since,
        until: options.until,
        category: options.category.clone(),
        target: args.target.map(Into::into),
        tags: args.tags.clone().map(Tags::into_list).unwrap_or_default(),
    })
}

async fn search(db: &Db, args: MemoryArgs) -> Result<Value, ToolError> {
    let query = args.required("query", args.query.as_ref())?.clone();
    let filter = filter(&args)?;
    let limit = args.dialect.limit.unwrap_or(DEFAULT_LIMIT);
    let page = db::read(db, move |s| s.search_memories(&query, &filter, limit)).await?;
    Ok(json!({ "results": memories_json(&page.memories), "total": page.total }))
}

async fn list(db: &Db, args: MemoryArgs) -> Result<Value, ToolError> {
    let filter = filter(&args)?;
    let page = db::read(db, move |s| s.list_memories(&filter, 0, MAX_MEMORY_RESULTS)).await?;
    let mut result = json!({ "memories": memories_json(&page.memories), "total": page.total });
    if page.total > page.memories.len() {
        result["note"] = json!(format!(
            "showing the {} pinned and most recent of {} memories; use action search to find others",
            page.memories.len(),
            page.total
        ));
    }
    Ok(result)
}

async fn list_contradictions(db: &Db) -> Result<Value, ToolError> {
    let (open, total) = db::read(db, |s| {
        s.list_contradictions(Some(ContradictionStatus::Open), 0, MAX_MEMORY_RESULTS)
    })
    .await?;
    Ok(json!({ "contradictions": open, "total": total }))
}

async fn resolve(db: &Db, args: MemoryArgs) -> Result<Value, ToolError> {
    let id = args
        .required("contradiction_id", args.contradiction_id.as_ref())?
        .value("contradiction_id")?;
    let winner = args
        .required("winner_id", args.winner_id.as_ref())?
        .value("winner_id")?;
    match db::write(db, move |s| s.resolve_contradiction(id, winner)).await? {
        Resolution::Resolved {
            contradiction,
            winner,
            removed_id,
        } => Ok(json!({
            "status": "resolved",
            "contradiction": contradiction,
            "winner": memory_json(&winner),
            "removed_id": removed_id,
        })),
        Resolution::AlreadyResolved(c) => Err(ToolError::invalid(
            "contradiction_id",
            format!(
                "contradiction {} is already resolved (memory {} was kept)",
                c.id,
                c.winner_id.unwrap_or(c.memory_a)
            ),
        )),
        Resolution::NotAParty(c) => Err(ToolError::invalid(
            "winner_id",
            format!(
                "must be memory_a ({}) or memory_b ({}) of contradiction {}",
                c.memory_a, c.memory_b, c.id
            ),
        )),
    }
}
