//! The arguments of the canonical `memory` tool, which parameters each action takes, and the
//! options only dialect wrappers set.

use crate::error::ToolError;
use hearth_store::{MemorySource, MemoryTarget};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum MemoryAction {
    Add,
    Replace,
    Remove,
    Search,
    List,
    ListContradictions,
    ResolveContradiction,
}

impl MemoryAction {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Add => "add",
            Self::Replace => "replace",
            Self::Remove => "remove",
            Self::Search => "search",
            Self::List => "list",
            Self::ListContradictions => "list_contradictions",
            Self::ResolveContradiction => "resolve_contradiction",
        }
    }

    /// The parameters (besides `action`) the action takes.
    fn params(self) -> &'static [&'static str] {
        match self {
            Self::Add => &[
                "content",
                "key",
                "tags",
                "importance",
                "pinned",
                "source",
                "target",
            ],
            Self::Replace => &["content", "key", "old_text", "tags", "importance", "pinned"],
            Self::Remove => &["key", "old_text"],
            Self::Search => &["query", "tags", "target"],
            Self::List => &["tags", "target"],
            Self::ListContradictions => &[],
            Self::ResolveContradiction => &["contradiction_id", "winner_id"],
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum SourceArg {
    UserStated,
    ModelInferred,
}

impl From<SourceArg> for MemorySource {
    fn from(source: SourceArg) -> Self {
        match source {
            SourceArg::UserStated => MemorySource::UserStated,
            SourceArg::ModelInferred => MemorySource::ModelInferred,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum TargetArg {
    User,
    Environment,
}

impl From<TargetArg> for MemoryTarget {
    fn from(target: TargetArg) -> Self {
        match target {
            TargetArg::User => MemoryTarget::User,
            TargetArg::Environment => MemoryTarget::Environment,
        }
    }
}

/// Tags as a list, or as one string of comma-separated tags.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum Tags {
    List(Vec<String>),
    Text(String),
}

impl Tags {
    pub(crate) fn into_list(self) -> Vec<String> {
        match self {
            Tags::List(list) => list,
            Tags::Text(text) => text.split(',').map(str::to_string).collect(),
        }
    }
}

/// A record id, as a number or a string of digits.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum Id {
    Number(i64),
    Text(String),
}

impl Id {
    pub(crate) fn value(&self, field: &str) -> Result<i64, ToolError> {
        match self {
            Id::Number(n) => Ok(*n),
            Id::Text(text) => text.trim().parse().map_err(|_| {
                ToolError::invalid(field, format!("must be a numeric id, got {text:?}"))
            }),
        }
    }
}

/// Options dialect wrappers set and the canonical schema does not offer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct DialectOptions {
    /// Written at or after / at or before, unix milliseconds (search).
    pub(crate) since: Option<i64>,
    pub(crate) until: Option<i64>,
    /// Results wanted (search; default 10).
    pub(crate) limit: Option<usize>,
    /// Category of new memories (add) or the only one searched (search).
    pub(crate) category: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MemoryArgs {
    /// `add` remembers `content` (with `key`, an existing memory with that key is overwritten);
    /// `replace` rewrites the memory named by `key` or `old_text` with `content`; `remove`
    /// forgets the memory named by `key` or `old_text`; `search` finds memories by `query`;
    /// `list` shows stored memories; `list_contradictions` shows open conflicts between
    /// memories; `resolve_contradiction` keeps `winner_id` and deletes the other side.
    pub(crate) action: MemoryAction,
    /// The memory text (`add`, `replace`): one self-contained fact, preference or note.
    #[schemars(length(min = 1, max = 10000))]
    pub(crate) content: Option<String>,
    /// A unique name for the memory (`add`: overwrite the memory with this key; `replace`,
    /// `remove`: the memory to change).
    #[schemars(length(min = 1, max = 200))]
    pub(crate) key: Option<String>,
    /// A piece of the current text that identifies one memory (`replace`, `remove`).
    #[schemars(length(min = 1, max = 10000))]
    pub(crate) old_text: Option<String>,
    /// Keywords (`search`); CJK text needs no spaces. A memory matching more of them ranks
    /// higher.
    #[schemars(length(min = 1, max = 500))]
    pub(crate) query: Option<String>,
    /// Labels (`add`, `replace`), or labels every result must have (`search`, `list`): a list
    /// or a comma-separated string.
    pub(crate) tags: Option<Tags>,
    /// How much the memory matters, 0 to 1 (default 0.5); ranks search results.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub(crate) importance: Option<f64>,
    /// Pinned memories are always in the system prompt and first in searches.
    pub(crate) pinned: Option<bool>,
    /// `user_stated` when the user said it, `model_inferred` (default) when you concluded it. A
    /// user statement outranks an inference: an inference contradicting one is held back.
    pub(crate) source: Option<SourceArg>,
    /// Whom the memory is about: `user` (default) or their `environment` (`add`), or the only
    /// one searched (`search`, `list`).
    pub(crate) target: Option<TargetArg>,
    /// The contradiction to resolve (from `list_contradictions`).
    pub(crate) contradiction_id: Option<Id>,
    /// The memory id to keep (`memory_a` or `memory_b` of the contradiction).
    pub(crate) winner_id: Option<Id>,
    #[serde(skip)]
    #[schemars(skip)]
    pub(crate) dialect: DialectOptions,
}

impl MemoryArgs {
    /// Arguments with just `action` set.
    pub(crate) fn new(action: MemoryAction) -> MemoryArgs {
        MemoryArgs {
            action,
            content: None,
            key: None,
            old_text: None,
            query: None,
            tags: None,
            importance: None,
            pinned: None,
            source: None,
            target: None,
            contradiction_id: None,
            winner_id: None,
            dialect: DialectOptions::default(),
        }
    }

    /// Fails with the first argument that is set but not used by the action.
    pub(crate) fn reject_unused(&self) -> Result<(), ToolError> {
        let set = [
            ("content", self.content.is_some()),
            ("key", self.key.is_some()),
            ("old_text", self.old_text.is_some()),
            ("query", self.query.is_some()),
            ("tags", self.tags.is_some()),
            ("importance", self.importance.is_some()),
            ("pinned", self.pinned.is_some()),
            ("source", self.source.is_some()),
            ("target", self.target.is_some()),
            ("contradiction_id", self.contradiction_id.is_some()),
            ("winner_id", self.winner_id.is_some()),
        ];
        let params = self.action.params();
        match set
            .iter()
            .find(|(name, present)| *present && !params.contains(name))
        {
            Some((name, _)) => Err(ToolError::invalid(
                *name,
                format!(
                    "is not used by action `{}` (it takes: {})",
                    self.action.as_str(),
                    if params.is_empty() {
                        "nothing else".to_string()
                    } else {
                        params.join(", ")
                    }
                ),
            )),
            None => Ok(()),
        }
    }

    /// `field`'s value, or `invalid_arguments` saying the action needs it.
    pub(crate) fn required<'a, T>(
        &self,
        field: &str,
        value: Option<&'a T>,
    ) -> Result<&'a T, ToolError>
    where
        T: ?Sized,
    {
        value.ok_or_else(|| {
            ToolError::invalid(
                field,
                format!("is required for action `{}`", self.action.as_str()),
            )
        })
    }
}
