//! `todo`: the session's checklist for multi-step work (create adds items; update, complete and
//! delete change one; delete without an id clears the list; list reads it). Every change is
//! shown live in the front end.

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_protocol::{EngineEvent, TodoList, TodoStatus};
use hearth_store::Db;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::checklist::{self, Change, ChecklistError, ItemEdit, NewItem, MAX_ITEMS};
use super::{required, text};
use crate::error::{ErrorKind, ToolError};
use crate::tool::{CallFacts, Tool, ToolContext};

/// The checklist tool.
pub struct Todo(pub(super) Db);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TodoAction {
    Create,
    Update,
    List,
    Complete,
    Delete,
}

/// An item's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ItemStatus {
    Pending,
    InProgress,
    Done,
}

impl From<ItemStatus> for TodoStatus {
    fn from(status: ItemStatus) -> TodoStatus {
        match status {
            ItemStatus::Pending => TodoStatus::Pending,
            ItemStatus::InProgress => TodoStatus::InProgress,
            ItemStatus::Done => TodoStatus::Done,
        }
    }
}

/// An item to add: its title, or the item with a status and notes.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum TodoEntry {
    Title(#[schemars(length(min = 1, max = 500))] String),
    Item {
        #[schemars(length(min = 1, max = 500))]
        title: String,
        status: Option<ItemStatus>,
        #[schemars(length(max = 2000))]
        notes: Option<String>,
    },
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TodoArgs {
    /// `create` (add `items`, or one item from `title`), `update` (task_id + title, status or
    /// notes), `complete` (task_id), `delete` (task_id; without it the whole list is cleared),
    /// `list`.
    pub action: TodoAction,
    /// The item's title: for `create` of one item, or a new title for `update`.
    #[schemars(length(max = 500))]
    pub title: Option<String>,
    /// Items to add, for `create`: titles, or objects with title, status and notes.
    #[schemars(length(max = 100))]
    pub items: Option<Vec<TodoEntry>>,
    /// The item's id (as `list` shows it), for `update`, `complete` and `delete`.
    #[schemars(length(max = 20))]
    pub task_id: Option<String>,
    /// `pending`, `in_progress` or `done`: for `update`, or for the item `create` adds from
    /// `title`.
    pub status: Option<ItemStatus>,
    /// Notes on the item, for `create` (with `title`) or `update`.
    #[schemars(length(max = 2000))]
    pub notes: Option<String>,
}

#[async_trait]
impl Tool for Todo {
    type Args = TodoArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::TODO
    }

    fn description(&self) -> &str {
        "Keep a checklist for multi-step work in this chat; the user sees it above the message \
         box while items are open. Actions: create (add items), update (change an item's \
         title, status or notes), complete (mark an item done), delete (remove an item, or \
         clear the list without task_id), list. Statuses: pending, in_progress, done. Mark an \
         item in_progress when you start it and complete it when it is done."
    }

    async fn call_facts(&self, args: &TodoArgs) -> CallFacts {
        match args.action {
            TodoAction::List => CallFacts::read_only(),
            _ => CallFacts::of(self.entry()),
        }
    }

    async fn run(&self, ctx: &ToolContext, args: TodoArgs) -> Result<Value, ToolError> {
        let change = match args.action {
            TodoAction::List => {
                let session = ctx.session_id.clone();
                let list = self
                    .0
                    .read(move |s| Ok::<_, ToolError>(s.todo_list(&session)?))
                    .await?;
                return Ok(result(list.as_ref()));
            }
            TodoAction::Create => Change::Add(new_items(&args)?),
            TodoAction::Update => {
                let id = required(args.task_id.as_deref(), "task_id", "update")?.to_string();
                let edit = ItemEdit {
                    title: text(args.title),
                    status: args.status.map(TodoStatus::from),
                    notes: text(args.notes),
                };
                if edit == ItemEdit::default() {
                    return Err(ToolError::invalid(
                        "status",
                        "update needs a new `title`, `status` or `notes`",
                    ));
                }
                Change::Edit { id, edit }
            }
            TodoAction::Complete => Change::Edit {
                id: required(args.task_id.as_deref(), "task_id", "complete")?.to_string(),
                edit: ItemEdit {
                    status: Some(TodoStatus::Done),
                    ..ItemEdit::default()
                },
            },
            TodoAction::Delete => match text(args.task_id) {
                Some(id) => Change::Remove(id),
                None => Change::Clear,
            },
        };
        let session = ctx.session_id.clone();
        let list = self
            .0
            .write(move |s| {
                s.change_todo_list(&session, |current| {
                    checklist::apply(current, change).map_err(|error| match error {
                        ChecklistError::NoSuchItem { .. } => {
                            ToolError::new(ErrorKind::NotFound, error.to_string())
                        }
                        ChecklistError::Full { .. } => {
                            ToolError::invalid("items", error.to_string())
                        }
                    })
                })
            })
            .await?;
        if let Some(conversation) = &ctx.conversation {
            conversation.show(EngineEvent::TodoChanged { list: list.clone() });
        }
        Ok(result(Some(&list)))
    }
}

/// The items `create` adds.
fn new_items(args: &TodoArgs) -> Result<Vec<NewItem>, ToolError> {
    let entries = match (&args.items, &args.title) {
        (Some(items), _) if !items.is_empty() => items
            .iter()
            .map(|entry| match entry {
                TodoEntry::Title(title) => (title.as_str(), None, None),
                TodoEntry::Item {
                    title,
                    status,
                    notes,
                } => (title.as_str(), *status, notes.clone()),
            })
            .collect(),
        (_, Some(title)) => vec![(title.as_str(), args.status, args.notes.clone())],
        _ => {
            return Err(ToolError::invalid(
                "items",
                "create needs `items` (or a `title` for one item)",
            ))
        }
    };
    if entries.len() > MAX_ITEMS {
        return Err(ToolError::invalid(
            "items",
            format!("at most {MAX_ITEMS} items"),
        ));
    }
    entries
        .into_iter()
        .enumerate()
        .map(|(i, (title, status, notes))| {
            let title = title.trim();
            if title.is_empty() {
                return Err(ToolError::invalid(
                    format!("items[{i}]"),
                    "an item needs a title",
                ));
            }
            Ok(NewItem {
                title: title.to_string(),
                status: status.map_or(TodoStatus::Pending, TodoStatus::from),
                notes: text(notes),
            })
        })
        .collect()
}

/// The list as the model reads it.
fn result(list: Option<&TodoList>) -> Value {
    match list {
        None => json!({"revision": 0, "items": [], "open": 0}),
        Some(list) => {
            let open = list
                .items
                .iter()
                .filter(|item| item.status != TodoStatus::Done)
                .count();
            json!({"revision": list.revision, "items": list.items, "open": open})
        }
    }
}
