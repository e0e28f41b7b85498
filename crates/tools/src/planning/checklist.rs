//! The session checklist's changes, pure: add items, update or complete one, remove one or all.
//! Ids are numbers given in order and never reused within a list.

use std::fmt;

use hearth_protocol::{TodoItem, TodoList, TodoStatus};

/// Most items a checklist holds.
pub const MAX_ITEMS: usize = 100;

/// An item to add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewItem {
    pub title: String,
    pub status: TodoStatus,
    pub notes: Option<String>,
}

/// What changes in one item (`None` keeps the field).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ItemEdit {
    pub title: Option<String>,
    pub status: Option<TodoStatus>,
    pub notes: Option<String>,
}

/// One change to a checklist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    Add(Vec<NewItem>),
    Edit { id: String, edit: ItemEdit },
    Remove(String),
    Clear,
}

/// Why a change cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChecklistError {
    NoSuchItem { id: String, ids: Vec<String> },
    Full { adding: usize, held: usize },
}

impl fmt::Display for ChecklistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoSuchItem { id, ids } if ids.is_empty() => {
                write!(f, "the checklist has no item \"{id}\"; it is empty")
            }
            Self::NoSuchItem { id, ids } => write!(
                f,
                "the checklist has no item \"{id}\"; its items are {}",
                ids.join(", ")
            ),
            Self::Full { adding, held } => write!(
                f,
                "adding {adding} items to the {held} held would pass the {MAX_ITEMS} allowed"
            ),
        }
    }
}

/// The checklist after `change` (its revision and time are the store's to set).
pub fn apply(list: Option<TodoList>, change: Change) -> Result<TodoList, ChecklistError> {
    let mut list = list.unwrap_or(TodoList {
        session_id: String::new(),
        revision: 0,
        items: Vec::new(),
        next_id: 1,
        updated_at: 0,
    });
    match change {
        Change::Add(items) => {
            if list.items.len() + items.len() > MAX_ITEMS {
                return Err(ChecklistError::Full {
                    adding: items.len(),
                    held: list.items.len(),
                });
            }
            for item in items {
                list.items.push(TodoItem {
                    id: list.next_id.to_string(),
                    title: item.title,
                    status: item.status,
                    notes: item.notes,
                });
                list.next_id += 1;
            }
        }
        Change::Edit { id, edit } => {
            let index = position(&list, &id)?;
            let item = &mut list.items[index];
            if let Some(title) = edit.title {
                item.title = title;
            }
            if let Some(status) = edit.status {
                item.status = status;
            }
            if let Some(notes) = edit.notes {
                item.notes = Some(notes);
            }
        }
        Change::Remove(id) => {
            let index = position(&list, &id)?;
            list.items.remove(index);
        }
        Change::Clear => list.items.clear(),
    }
    Ok(list)
}

fn position(list: &TodoList, id: &str) -> Result<usize, ChecklistError> {
    let id = id.trim();
    list.items
        .iter()
        .position(|item| item.id == id)
        .ok_or_else(|| ChecklistError::NoSuchItem {
            id: id.to_string(),
            ids: list.items.iter().map(|item| item.id.clone()).collect(),
        })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn new(title: &str) -> NewItem {
        NewItem {
            title: title.into(),
            status: TodoStatus::Pending,
            notes: None,
        }
    }

    #[test]
    fn items_get_ids_in_order_that_are_never_reused() {
        let list = apply(None, Change::Add(vec![new("a"), new("b")])).unwrap();
        assert_eq!(list.items[1].id, "2");
        let list = apply(Some(list), Change::Remove("2".into())).unwrap();
        let list = apply(Some(list), Change::Add(vec![new("c")])).unwrap();
        let ids: Vec<&str> = list.items.iter().map(|i| i.id.as_str()).collect();
        assert_eq!(ids, ["1", "3"]);
        let list = apply(Some(list), Change::Clear).unwrap();
        assert!(list.items.is_empty());
        assert_eq!(list.next_id, 4);
    }

    #[test]
    fn an_edit_changes_only_what_it_names() {
        let list = apply(None, Change::Add(vec![new("a")])).unwrap();
        let edit = ItemEdit {
            status: Some(TodoStatus::InProgress),
            notes: Some("half".into()),
            ..ItemEdit::default()
        };
        let list = apply(
            Some(list),
            Change::Edit {
                id: " 1 ".into(),
                edit,
            },
        )
        .unwrap();
        assert_eq!(list.items[0].title, "a");
        assert_eq!(list.items[0].status, TodoStatus::InProgress);
        assert_eq!(list.items[0].notes.as_deref(), Some("half"));
        assert!(list.has_open_items());
    }

    #[test]
    fn unknown_items_and_a_full_list_are_refused() {
        let error = apply(None, Change::Remove("1".into())).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the checklist has no item \"1\"; it is empty"
        );
        let list = apply(None, Change::Add(vec![new("a")])).unwrap();
        let error = apply(
            Some(list.clone()),
            Change::Edit {
                id: "7".into(),
                edit: ItemEdit::default(),
            },
        )
        .unwrap_err();
        assert!(error.to_string().ends_with("its items are 1"), "{error}");
        let many = (0..MAX_ITEMS).map(|i| new(&i.to_string())).collect();
        assert_eq!(
            apply(Some(list), Change::Add(many)).unwrap_err(),
            ChecklistError::Full {
                adding: MAX_ITEMS,
                held: 1
            }
        );
    }
}
