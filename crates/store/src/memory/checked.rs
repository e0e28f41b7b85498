//! Checking a new memory or an edit before it is written: content, key, tags, importance and
//! category limits, with defaults applied.

use super::{
    normalize_tags, NewMemory, DEFAULT_CATEGORY, MAX_CATEGORY_CHARS, MAX_KEY_CHARS,
    MAX_MEMORY_CHARS, MAX_TAGS, MAX_TAG_CHARS,
};
use crate::{Result, StoreError};

fn invalid(field: &'static str, message: impl Into<String>) -> StoreError {
    StoreError::Invalid {
        field,
        message: message.into(),
    }
}

/// The trimmed content, or why it cannot be stored.
pub(super) fn checked_content(content: &str) -> Result<String> {
    let content = content.trim();
    if content.is_empty() {
        return Err(invalid("content", "a memory cannot be empty"));
    }
    let chars = content.chars().count();
    if chars > MAX_MEMORY_CHARS {
        return Err(invalid(
            "content",
            format!("a memory holds at most {MAX_MEMORY_CHARS} characters, got {chars}"),
        ));
    }
    Ok(content.to_string())
}

pub(super) fn checked_tags(tags: &[String]) -> Result<Vec<String>> {
    let tags = normalize_tags(tags);
    if tags.len() > MAX_TAGS {
        return Err(invalid("tags", format!("at most {MAX_TAGS} tags")));
    }
    if let Some(long) = tags.iter().find(|t| t.chars().count() > MAX_TAG_CHARS) {
        return Err(invalid(
            "tags",
            format!("tag {long:?} is longer than {MAX_TAG_CHARS} characters"),
        ));
    }
    Ok(tags)
}

pub(super) fn checked_importance(importance: f64) -> Result<f64> {
    if (0.0..=1.0).contains(&importance) {
        Ok(importance)
    } else {
        Err(invalid("importance", "importance is between 0 and 1"))
    }
}

/// A new memory with every field checked and defaults applied.
#[derive(Clone)]
pub(super) struct Checked {
    pub(super) content: String,
    pub(super) key: Option<String>,
    pub(super) tags: Option<Vec<String>>,
    pub(super) importance: Option<f64>,
    pub(super) pinned: Option<bool>,
    pub(super) category: String,
}

pub(super) fn check(new: &NewMemory) -> Result<Checked> {
    let key = match new.key.as_deref().map(str::trim) {
        Some("") => return Err(invalid("key", "a key cannot be empty")),
        Some(key) if key.chars().count() > MAX_KEY_CHARS => {
            return Err(invalid(
                "key",
                format!("at most {MAX_KEY_CHARS} characters"),
            ))
        }
        other => other.map(str::to_string),
    };
    let category = new.category.as_deref().map_or(DEFAULT_CATEGORY, str::trim);
    if category.is_empty() || category.chars().count() > MAX_CATEGORY_CHARS {
        return Err(invalid(
            "category",
            format!("1 to {MAX_CATEGORY_CHARS} characters"),
        ));
    }
    Ok(Checked {
        content: checked_content(&new.content)?,
        key,
        tags: new.tags.as_deref().map(checked_tags).transpose()?,
        importance: new.importance.map(checked_importance).transpose()?,
        pinned: new.pinned,
        category: category.to_string(),
    })
}
