//! `chat_manager` (PicoBot): pages over sessions, the channels their ids name, and a
//! session's messages, newest first, with a time window in unix seconds.

use super::scan::{channel_of, message_json, newest_first, seconds};
use crate::db;
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_protocol::Session;
use hearth_store::Db;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::ops::ControlFlow;

/// Items per page without `count`.
const DEFAULT_COUNT: usize = 20;

pub(crate) struct ChatManager {
    pub(crate) db: Db,
}

/// The actions, named as PicoBot names them.
#[allow(clippy::enum_variant_names)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ChatAction {
    ListSessions,
    ListChannels,
    ListMessages,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChatManagerArgs {
    /// `list_sessions` (most recently active first), `list_channels` (channels of the session
    /// ids, e.g. `desktop`), `list_messages` (of `session_id`, newest first).
    action: ChatAction,
    /// The session whose messages to list (required for `list_messages`).
    #[schemars(length(min = 1, max = 300))]
    session_id: Option<String>,
    /// How many items (default 20, at most 100).
    #[schemars(range(min = 1, max = 100))]
    count: Option<usize>,
    /// Items to skip, for paging.
    #[schemars(range(min = 0, max = 1000000))]
    offset: Option<usize>,
    /// Only items from before this time (unix seconds): messages written, sessions and
    /// channels last active.
    #[schemars(range(min = 0))]
    before_time: Option<i64>,
    /// Only items from after this time (unix seconds).
    #[schemars(range(min = 0))]
    after_time: Option<i64>,
}

/// The time window, in unix seconds, both ends excluded.
#[derive(Clone, Copy)]
struct Window {
    before: Option<i64>,
    after: Option<i64>,
}

impl Window {
    fn holds(self, ms: i64) -> bool {
        let at = seconds(ms);
        self.before.is_none_or(|b| at < b) && self.after.is_none_or(|a| at > a)
    }
}

/// Page `offset..offset + count` of `items`, and whether more follow.
fn page<T>(items: Vec<T>, offset: usize, count: usize) -> (Vec<T>, bool) {
    let more = items.len() > offset.saturating_add(count);
    (items.into_iter().skip(offset).take(count).collect(), more)
}

fn session_json(session: &Session) -> Value {
    json!({
        "session_id": session.id,
        "title": session.title,
        "channel": channel_of(&session.id),
        "message_count": session.message_count,
        "pinned": session.pinned,
        "created_at": seconds(session.created_at),
        "updated_at": seconds(session.updated_at),
    })
}

/// One row per channel: its sessions, messages and last activity, the most recent first.
fn channels(sessions: &[Session]) -> Vec<Value> {
    let mut by_channel: BTreeMap<&str, (usize, i64, i64)> = BTreeMap::new();
    for session in sessions {
        let entry = by_channel.entry(channel_of(&session.id)).or_default();
        entry.0 += 1;
        entry.1 += session.message_count;
        entry.2 = entry.2.max(session.updated_at);
    }
    let mut rows: Vec<(&str, (usize, i64, i64))> = by_channel.into_iter().collect();
    rows.sort_by(|a, b| b.1 .2.cmp(&a.1 .2).then(a.0.cmp(b.0)));
    rows.into_iter()
        .map(|(channel, (sessions, messages, last))| {
            json!({
                "channel": channel,
                "sessions": sessions,
                "messages": messages,
                "last_active": seconds(last),
            })
        })
        .collect()
}

#[async_trait]
impl Tool for ChatManager {
    type Args = ChatManagerArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::CHAT_MANAGER
    }

    fn description(&self) -> &str {
        "Pages through past conversations: list_sessions (most recently active first), \
         list_channels, or list_messages of one session (newest first). Times are unix \
         seconds; count is at most 100, offset skips items for the next page."
    }

    async fn run(&self, _ctx: &ToolContext, args: ChatManagerArgs) -> Result<Value, ToolError> {
        let count = args.count.unwrap_or(DEFAULT_COUNT);
        let offset = args.offset.unwrap_or(0);
        let window = Window {
            before: args.before_time,
            after: args.after_time,
        };
        if let (Some(before), Some(after)) = (window.before, window.after) {
            if before <= after {
                return Err(ToolError::invalid(
                    "before_time",
                    "must be later than `after_time`",
                ));
            }
        }
        if args.action != ChatAction::ListMessages && args.session_id.is_some() {
            return Err(ToolError::invalid(
                "session_id",
                "is only used by action `list_messages`",
            ));
        }
        match args.action {
            ChatAction::ListSessions | ChatAction::ListChannels => {
                let mut sessions = db::read(&self.db, |s| s.list_sessions()).await?;
                sessions.retain(|s| window.holds(s.updated_at));
                let (key, rows) = if args.action == ChatAction::ListSessions {
                    ("sessions", sessions.iter().map(session_json).collect())
                } else {
                    ("channels", channels(&sessions))
                };
                let total = rows.len();
                let (rows, has_more) = page(rows, offset, count);
                let mut result = json!({ "total": total, "offset": offset, "has_more": has_more });
                result[key] = Value::Array(rows);
                Ok(result)
            }
            ChatAction::ListMessages => {
                let id = args.session_id.ok_or_else(|| {
                    ToolError::invalid("session_id", "is required for action `list_messages`")
                })?;
                let messages = db::read(&self.db, move |s| {
                    let Some(session) = s.get_session(&id)? else {
                        return Ok(Err(id));
                    };
                    let mut kept = Vec::new();
                    // Stopping early (page full, window passed) needs no special handling.
                    let _stopped = newest_first(s, &session, |message| {
                        if window
                            .after
                            .is_some_and(|a| seconds(message.created_at) <= a)
                        {
                            return ControlFlow::Break(());
                        }
                        if window.holds(message.created_at) {
                            kept.push(message_json(message));
                        }
                        if kept.len() > offset.saturating_add(count) {
                            ControlFlow::Break(())
                        } else {
                            ControlFlow::Continue(())
                        }
                    })?;
                    Ok(Ok((session.id, kept)))
                })
                .await?;
                let (session_id, kept) = messages.map_err(|id| {
                    ToolError::new(ErrorKind::NotFound, format!("no session {id:?}"))
                })?;
                let (messages, has_more) = page(kept, offset, count);
                Ok(json!({
                    "session_id": session_id,
                    "messages": messages,
                    "offset": offset,
                    "has_more": has_more,
                }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_know_whether_more_follow() {
        let items: Vec<u32> = (0..10).collect();
        assert_eq!(page(items.clone(), 0, 4), (vec![0, 1, 2, 3], true));
        assert_eq!(page(items.clone(), 8, 4), (vec![8, 9], false));
        assert_eq!(page(items.clone(), 6, 4), (vec![6, 7, 8, 9], false));
        assert_eq!(page(items, usize::MAX, 4), (vec![], false));
    }

    #[test]
    fn the_window_excludes_both_ends() {
        let window = Window {
            before: Some(20),
            after: Some(10),
        };
        assert!(!window.holds(10_999));
        assert!(window.holds(11_000));
        assert!(window.holds(19_999));
        assert!(!window.holds(20_000));
        let open = Window {
            before: None,
            after: None,
        };
        assert!(open.holds(0));
    }
}
