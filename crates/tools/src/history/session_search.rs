//! `session_search`: keywords through the full-text index, or `/regex/` over the
//! text of the newest messages (a bounded scan), with role and session filters.

use super::scan::newest_first;
use crate::db;
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_protocol::Role;
use hearth_store::{searchable_text, Db, Store};
use regex::{Regex, RegexBuilder};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::ops::{ControlFlow, Range};

/// Results without `max_results`.
const DEFAULT_RESULTS: usize = 20;
/// Messages a regex search reads at most, newest first.
pub(crate) const REGEX_SCAN_CAP: usize = 20_000;
/// Compiled size a regex may take.
const REGEX_SIZE_LIMIT: usize = 1 << 20;
/// Characters of context before a regex match in its snippet, and the snippet's length.
const SNIPPET_BEFORE: usize = 30;
const SNIPPET_CHARS: usize = 120;

pub(crate) struct SessionSearch {
    pub(crate) db: Db,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum RoleFilter {
    User,
    Assistant,
    All,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SessionSearchArgs {
    /// Keywords (a message must contain each; CJK text needs no spaces), or a regular
    /// expression between slashes, optionally followed by flags `i` (ignore case), `m`, `s`:
    /// `/deploy(ed|ment)/i`.
    #[schemars(length(min = 1, max = 1000))]
    query: String,
    /// How many messages to return (default 20, at most 100).
    #[schemars(range(min = 1, max = 100))]
    max_results: Option<usize>,
    /// Only messages by the `user`, the `assistant`, or `all` (default, includes tool results).
    role_filter: Option<RoleFilter>,
    /// Only this session (an id such as `desktop:…`).
    #[schemars(length(min = 1, max = 300))]
    session_key: Option<String>,
}

/// `/pattern/flags` as a regex, `None` when the query is not written that way.
fn as_regex(query: &str) -> Option<Result<Regex, ToolError>> {
    let rest = query.strip_prefix('/')?;
    let close = rest.rfind('/')?;
    let (pattern, flags) = (&rest[..close], &rest[close + 1..]);
    if pattern.is_empty() || !flags.chars().all(|f| matches!(f, 'i' | 'm' | 's')) {
        return None;
    }
    let built = RegexBuilder::new(pattern)
        .case_insensitive(flags.contains('i'))
        .multi_line(flags.contains('m'))
        .dot_matches_new_line(flags.contains('s'))
        .size_limit(REGEX_SIZE_LIMIT)
        .build()
        .map_err(|e| {
            ToolError::invalid("query", format!("is not a valid regular expression: {e}"))
        });
    Some(built)
}

/// Up to [`SNIPPET_CHARS`] characters of `text` around `found`, the match in `[` `]`, on one line.
fn snippet(text: &str, found: Range<usize>) -> String {
    let before: Vec<char> = text[..found.start].chars().collect();
    let skipped = before.len().saturating_sub(SNIPPET_BEFORE);
    let mut out = String::new();
    if skipped > 0 {
        out.push('…');
    }
    out.extend(&before[skipped..]);
    let mut budget = SNIPPET_CHARS.saturating_sub(before.len() - skipped);
    let matched: String = text[found.clone()].chars().take(budget).collect();
    budget -= matched.chars().count();
    out.push('[');
    out.push_str(&matched);
    out.push(']');
    let after = &text[found.end..];
    out.extend(after.chars().take(budget));
    if after.chars().count() > budget {
        out.push('…');
    }
    out.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn role_of(filter: Option<RoleFilter>) -> Option<Role> {
    match filter {
        Some(RoleFilter::User) => Some(Role::User),
        Some(RoleFilter::Assistant) => Some(Role::Assistant),
        Some(RoleFilter::All) | None => None,
    }
}

/// Newest messages matching `regex`, scanning at most [`REGEX_SCAN_CAP`].
fn regex_search(
    store: &Store,
    regex: &Regex,
    session: Option<&str>,
    role: Option<Role>,
    max: usize,
) -> Result<Value, hearth_store::StoreError> {
    let sessions = match session {
        Some(id) => store.get_session(id)?.into_iter().collect(),
        None => store.list_sessions()?,
    };
    let mut results = Vec::new();
    let mut scanned = 0;
    for session in &sessions {
        let stopped = newest_first(store, session, |message| {
            if scanned == REGEX_SCAN_CAP || results.len() == max {
                return ControlFlow::Break(());
            }
            scanned += 1;
            if role.is_some_and(|r| r != message.role) {
                return ControlFlow::Continue(());
            }
            let text = searchable_text(
                &message.content,
                &message.tool_calls,
                message.tool_result.as_ref(),
            );
            if let Some(found) = regex.find(&text) {
                results.push(json!({
                    "message_id": message.id,
                    "session_id": session.id,
                    "session_title": session.title,
                    "role": message.role.as_str(),
                    "snippet": snippet(&text, found.range()),
                    "created_at": message.created_at,
                }));
            }
            ControlFlow::Continue(())
        })?;
        if stopped {
            break;
        }
    }
    Ok(json!({
        "mode": "regex",
        "results": results,
        "scanned": scanned,
        "complete": scanned < REGEX_SCAN_CAP,
    }))
}

#[async_trait]
impl Tool for SessionSearch {
    type Args = SessionSearchArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::SESSION_SEARCH
    }

    fn description(&self) -> &str {
        "Searches the messages of every past session: keywords through the full-text index \
         (best matches first), or a /regular expression/ over the newest 20,000 messages \
         (newest first). Hits give the session, role, time and a snippet with the match in [ ]."
    }

    async fn run(&self, _ctx: &ToolContext, args: SessionSearchArgs) -> Result<Value, ToolError> {
        let max = args.max_results.unwrap_or(DEFAULT_RESULTS);
        let role = role_of(args.role_filter);
        let regex = as_regex(&args.query);
        let (session, query) = (args.session_key, args.query);
        // The session check and the search: one trip to the blocking pool.
        db::read(&self.db, move |s| {
            if let Some(id) = &session {
                if s.get_session(id)?.is_none() {
                    let missing = format!("no session {id:?}");
                    return Ok(Err(ToolError::new(ErrorKind::NotFound, missing)));
                }
            }
            let session = session.as_deref();
            match regex {
                Some(Err(invalid)) => Ok(Err(invalid)),
                Some(Ok(regex)) => regex_search(s, &regex, session, role, max).map(Ok),
                None => {
                    let hits = s.search_messages(&query, max, session, role)?;
                    Ok(Ok(json!({ "mode": "keyword", "results": hits })))
                }
            }
        })
        .await?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regex_queries_are_slash_delimited_with_flags() {
        assert!(as_regex("deploy").is_none());
        assert!(as_regex("/usr/bin").is_none(), "a path, not a regex");
        assert!(as_regex("//").is_none());
        assert!(matches!(as_regex("/a.c/"), Some(Ok(r)) if r.is_match("abc")));
        assert!(matches!(as_regex("/ABC/i"), Some(Ok(r)) if r.is_match("abc")));
        assert!(matches!(as_regex("/a/b/"), Some(Ok(r)) if r.is_match("a/b")));
        let bad = as_regex("/(unclosed/").map(|r| r.err().and_then(|e| e.field));
        assert_eq!(bad, Some(Some("query".to_string())));
    }

    #[test]
    fn snippets_mark_the_match_around_its_context() {
        let text = format!("{}needle{}", "x".repeat(50), "y".repeat(200));
        let at = text.find("needle").unwrap_or(0);
        let s = snippet(&text, at..at + 6);
        assert!(
            s.starts_with(&format!("…{}[needle]y", "x".repeat(30))),
            "{s}"
        );
        assert!(s.ends_with('…'));
        assert_eq!(s.chars().count(), 1 + 30 + 1 + 6 + 1 + (120 - 36) + 1);
        assert_eq!(snippet("找到绿茶了\n好", 6..12), "找到[绿茶]了 好");
    }
}
