//! Tests of message pages.

use hearth_protocol::{ContentPart, Role, ToolResult, Usage};

use crate::test_support::{call, TempStore};
use crate::{NewMessage, StoreError, MAX_PAGE_MESSAGES};

/// A store with session "s" of `n` user messages (interleaved with noise in "other"); their ids.
fn chat(n: usize) -> (TempStore, Vec<i64>) {
    let t = TempStore::new();
    t.session("s");
    t.session("other");
    let ids = (0..n)
        .map(|i| {
            t.say("other", Role::User, "noise");
            t.say("s", Role::User, &format!("message {i}")).id
        })
        .collect();
    (t, ids)
}

fn page_ids(
    t: &TempStore,
    before: Option<i64>,
    through: Option<i64>,
    limit: i64,
) -> (Vec<i64>, bool) {
    let page = t.store.message_page("s", before, through, limit).unwrap();
    (page.messages.iter().map(|m| m.id).collect(), page.has_older)
}

#[test]
fn pages_walk_back_from_the_newest_message() {
    let (t, ids) = chat(7);
    assert_eq!(page_ids(&t, None, None, 3), (ids[4..].to_vec(), true));
    assert_eq!(
        page_ids(&t, Some(ids[4]), None, 3),
        (ids[1..4].to_vec(), true)
    );
    assert_eq!(
        page_ids(&t, Some(ids[1]), None, 3),
        (ids[..1].to_vec(), false)
    );
    assert_eq!(page_ids(&t, None, None, 7), (ids.clone(), false));
    assert_eq!(
        page_ids(&t, None, None, MAX_PAGE_MESSAGES),
        (ids.clone(), false)
    );
    assert_eq!(page_ids(&t, Some(ids[0]), None, 3), (vec![], false));
    t.session("empty");
    let empty = t.store.message_page("empty", None, None, 10).unwrap();
    assert!(empty.messages.is_empty() && !empty.has_older);
}

#[test]
fn through_reaches_back_to_that_message_with_context_before_it() {
    let (t, ids) = chat(10);
    assert_eq!(
        page_ids(&t, None, Some(ids[2]), 2),
        (ids[1..].to_vec(), true)
    );
    assert_eq!(
        page_ids(&t, Some(ids[6]), Some(ids[2]), 1),
        (ids[2..6].to_vec(), true)
    );
    assert_eq!(
        page_ids(&t, Some(ids[6]), Some(ids[1]), 5),
        (ids[..6].to_vec(), false)
    );
}

#[test]
fn a_page_never_starts_with_a_tool_result() {
    let t = TempStore::new();
    t.session("s");
    let question = t.say("s", Role::User, "read it");
    let mut reply = NewMessage::new("s", Role::Assistant, vec![ContentPart::text("reading")]);
    reply.tool_calls = vec![call("c1", "read_file", "{}"), call("c2", "read_file", "{}")];
    let reply = t.store.insert_message(&reply).unwrap();
    let result = |id: &str| {
        let mut new = NewMessage::new("s", Role::Tool, vec![]);
        new.tool_result = Some(ToolResult {
            call_id: id.into(),
            name: "read_file".into(),
            content: "text".into(),
            is_error: false,
            duration_ms: 1,
            images: Vec::new(),
            views: Vec::new(),
        });
        t.store.insert_message(&new).unwrap().id
    };
    let first = result("c1");
    let second = result("c2");
    let answer = t.say("s", Role::Assistant, "done").id;
    let all = vec![reply.id, first, second, answer];
    assert_eq!(page_ids(&t, None, None, 2), (all.clone(), true));
    assert_eq!(page_ids(&t, None, None, 3), (all, true));
    assert_eq!(
        page_ids(&t, Some(reply.id), None, 3),
        (vec![question.id], false)
    );
}

#[test]
fn bad_requests_are_refused_by_name_and_change_nothing() {
    let (t, ids) = chat(3);
    let before = t.store.list_messages("s").unwrap();
    for limit in [0, -1, i64::MIN, MAX_PAGE_MESSAGES + 1, i64::MAX] {
        let err = t.store.message_page("s", None, None, limit).unwrap_err();
        assert!(
            matches!(err, StoreError::Invalid { field: "limit", .. }),
            "{limit}: {err}"
        );
    }
    let err = t.store.message_page("missing", None, None, 10).unwrap_err();
    assert_eq!(err.to_string(), "session not found: missing");
    let noise = t.store.list_messages("other").unwrap()[0].id;
    for unknown in [noise, ids[2] + 1_000, -5] {
        let err = t
            .store
            .message_page("s", Some(unknown), None, 10)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("message not found: {unknown} in session s")
        );
        let err = t
            .store
            .message_page("s", None, Some(unknown), 10)
            .unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::NotFound {
                    what: "message",
                    ..
                }
            ),
            "{err}"
        );
    }
    let err = t
        .store
        .message_page("s", Some(ids[1]), Some(ids[1]), 10)
        .unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::Invalid {
                field: "through",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(t.store.list_messages("s").unwrap(), before);
}

#[test]
fn older_usage_sums_the_messages_before_the_page() {
    let t = TempStore::new();
    t.session("s");
    for tokens in [10, 20, 40] {
        t.say("s", Role::User, "question");
        let mut reply = NewMessage::new("s", Role::Assistant, vec![ContentPart::text("answer")]);
        reply.usage = Some(Usage {
            input_tokens: tokens,
            output_tokens: tokens + 1,
        });
        t.store.insert_message(&reply).unwrap();
    }
    let usage = |limit| {
        t.store
            .message_page("s", None, None, limit)
            .unwrap()
            .older_usage
    };
    assert_eq!(usage(6), Usage::default());
    assert_eq!(
        usage(2),
        Usage {
            input_tokens: 30,
            output_tokens: 32
        }
    );
    assert_eq!(
        usage(1),
        Usage {
            input_tokens: 30,
            output_tokens: 32
        }
    );
    assert_eq!(
        usage(3),
        Usage {
            input_tokens: 10,
            output_tokens: 11
        }
    );
}

#[test]
fn older_usage_reads_the_usage_index_not_the_messages() {
    let t = TempStore::new();
    let conn = t.store.conn();
    let plan: Vec<String> = conn
        .prepare(&format!("EXPLAIN QUERY PLAN {}", super::USAGE_BEFORE))
        .unwrap()
        .query_map(rusqlite::params!["s", 10], |row| row.get(3))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert_eq!(
        plan,
        vec!["SEARCH messages USING COVERING INDEX messages_usage (session_id=? AND id<?)"]
    );
}
