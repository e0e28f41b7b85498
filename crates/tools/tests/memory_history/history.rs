//! `session_search` and `chat_manager` over real sessions and messages.

use crate::memory_history::{assert_invalid, column, Fixture};
use hearth_protocol::Role;
use hearth_tools::ErrorKind;
use serde_json::json;

fn conversation() -> Fixture {
    let f = Fixture::open();
    f.session("desktop:a", "Deploy notes");
    f.session("desktop:b", "Tea");
    f.session("telegram:42", "Groceries");
    f.say("desktop:a", Role::User, "How do I deploy the server?");
    f.say(
        "desktop:a",
        Role::Assistant,
        "Deployment: run the deploy script, then check logs.",
    );
    f.say("desktop:b", Role::User, "我喜欢喝绿茶");
    f.say(
        "desktop:b",
        Role::Assistant,
        "绿茶很健康。Error code E42 was fixed.",
    );
    f.say("telegram:42", Role::User, "buy milk and tea");
    f
}

#[tokio::test]
async fn keyword_search_with_role_and_session_filters() {
    let f = conversation();
    let all = f.ok("session_search", json!({"query": "deploy"})).await;
    assert_eq!(all["mode"], "keyword");
    assert_eq!(column(&all, "results", "session_id").len(), 2);
    let users = f
        .ok(
            "session_search",
            json!({"query": "deploy", "role_filter": "user"}),
        )
        .await;
    assert_eq!(column(&users, "results", "role"), [json!("user")]);
    assert_eq!(users["results"][0]["session_title"], "Deploy notes");
    assert_eq!(
        users["results"][0]["snippet"],
        "How do I [deploy] the server?"
    );
    let assistant = f
        .ok(
            "session_search",
            json!({"query": "绿茶", "role_filter": "assistant"}),
        )
        .await;
    assert_eq!(
        column(&assistant, "results", "session_id"),
        [json!("desktop:b")]
    );
    let scoped = f
        .ok(
            "session_search",
            json!({"query": "tea", "session_key": "telegram:42", "role_filter": "all"}),
        )
        .await;
    assert_eq!(
        column(&scoped, "results", "session_id"),
        [json!("telegram:42")]
    );
    let one = f
        .ok(
            "session_search",
            json!({"query": "deploy", "max_results": 1}),
        )
        .await;
    assert_eq!(one["results"].as_array().map(Vec::len), Some(1));
}

#[tokio::test]
async fn regex_search_scans_message_text() {
    let f = conversation();
    let found = f.ok("session_search", json!({"query": "/E\\d+/"})).await;
    assert_eq!(found["mode"], "regex");
    assert_eq!(found["complete"], true);
    assert_eq!(found["scanned"], 5);
    assert_eq!(
        column(&found, "results", "session_id"),
        [json!("desktop:b")]
    );
    assert_eq!(
        found["results"][0]["snippet"],
        "绿茶很健康。Error code [E42] was fixed."
    );
    let ignore_case = f
        .ok(
            "session_search",
            json!({"query": "/^how do/i", "role_filter": "user"}),
        )
        .await;
    assert_eq!(
        column(&ignore_case, "results", "session_title"),
        [json!("Deploy notes")]
    );
    let case_sensitive = f.ok("session_search", json!({"query": "/^how do/"})).await;
    assert_eq!(case_sensitive["results"], json!([]));
    let assistant_only = f
        .ok(
            "session_search",
            json!({"query": "/deploy/i", "role_filter": "assistant"}),
        )
        .await;
    assert_eq!(
        column(&assistant_only, "results", "role"),
        [json!("assistant")]
    );
    let scoped = f
        .ok(
            "session_search",
            json!({"query": "/茶/", "session_key": "telegram:42"}),
        )
        .await;
    assert_eq!(scoped["results"], json!([]));
    let newest_first = f
        .ok("session_search", json!({"query": "/./", "max_results": 2}))
        .await;
    assert_eq!(newest_first["results"].as_array().map(Vec::len), Some(2));
}

#[tokio::test]
async fn session_search_refuses_bad_arguments() {
    let f = conversation();
    let bad_regex = f
        .err("session_search", json!({"query": "/(unclosed/"}))
        .await;
    assert_invalid(&bad_regex, "query");
    assert!(
        bad_regex.message.contains("regular expression"),
        "{}",
        bad_regex.message
    );
    let huge = f
        .err("session_search", json!({"query": "/a{1000}{1000}/"}))
        .await;
    assert_invalid(&huge, "query");
    for (args, field) in [
        (json!({}), "query"),
        (json!({"query": ""}), "query"),
        (json!({"query": "x", "max_results": 101}), "max_results"),
        (json!({"query": "x", "max_results": 0}), "max_results"),
        (json!({"query": "x", "role_filter": "tool"}), "role_filter"),
        (json!({"query": "x", "session": "desktop:a"}), "session"),
    ] {
        let error = f.err("session_search", args.clone()).await;
        assert_invalid(&error, field);
    }
    let unknown = f
        .err(
            "session_search",
            json!({"query": "x", "session_key": "desktop:zzz"}),
        )
        .await;
    assert_eq!(unknown.kind, ErrorKind::NotFound);
}

#[tokio::test]
async fn chat_manager_pages_sessions_channels_and_messages() {
    let f = conversation();
    let sessions = f
        .ok("chat_manager", json!({"action": "list_sessions"}))
        .await;
    assert_eq!(sessions["total"], 3);
    assert_eq!(sessions["has_more"], false);
    assert_eq!(
        column(&sessions, "sessions", "session_id"),
        [json!("telegram:42"), json!("desktop:b"), json!("desktop:a")]
    );
    assert_eq!(sessions["sessions"][0]["channel"], "telegram");
    assert_eq!(sessions["sessions"][0]["message_count"], 1);
    let second = f
        .ok(
            "chat_manager",
            json!({"action": "list_sessions", "count": 2, "offset": 2}),
        )
        .await;
    assert_eq!(
        column(&second, "sessions", "session_id"),
        [json!("desktop:a")]
    );
    let first = f
        .ok(
            "chat_manager",
            json!({"action": "list_sessions", "count": 2}),
        )
        .await;
    assert_eq!(first["has_more"], true);

    let channels = f
        .ok("chat_manager", json!({"action": "list_channels"}))
        .await;
    assert_eq!(
        channels["channels"],
        json!([
            {"channel": "telegram", "sessions": 1, "messages": 1,
             "last_active": channels["channels"][0]["last_active"]},
            {"channel": "desktop", "sessions": 2, "messages": 4,
             "last_active": channels["channels"][1]["last_active"]},
        ])
    );

    let messages = f
        .ok(
            "chat_manager",
            json!({"action": "list_messages", "session_id": "desktop:a"}),
        )
        .await;
    assert_eq!(
        column(&messages, "messages", "role"),
        [json!("assistant"), json!("user")]
    );
    assert_eq!(
        messages["messages"][1]["text"],
        "How do I deploy the server?"
    );
    let paged = f
        .ok(
            "chat_manager",
            json!({"action": "list_messages", "session_id": "desktop:a", "count": 1, "offset": 1}),
        )
        .await;
    assert_eq!(column(&paged, "messages", "role"), [json!("user")]);
    assert_eq!(paged["has_more"], false);
}

#[tokio::test]
async fn chat_manager_time_windows_are_unix_seconds() {
    let f = conversation();
    let now = chrono::Utc::now().timestamp();
    let window = |before: i64, after: i64| json!({"action": "list_messages", "session_id": "desktop:b", "before_time": before, "after_time": after});
    let all = f.ok("chat_manager", window(now + 60, now - 60)).await;
    assert_eq!(all["messages"].as_array().map(Vec::len), Some(2));
    let future = f.ok("chat_manager", window(now + 120, now + 60)).await;
    assert_eq!(future["messages"], json!([]));
    let past = f.ok("chat_manager", window(now - 60, 0)).await;
    assert_eq!(past["messages"], json!([]));
    let sessions = f
        .ok(
            "chat_manager",
            json!({"action": "list_sessions", "after_time": now + 60}),
        )
        .await;
    assert_eq!(sessions["total"], 0);
    let channels = f
        .ok(
            "chat_manager",
            json!({"action": "list_channels", "before_time": now + 60}),
        )
        .await;
    assert_eq!(channels["total"], 2);
}

#[tokio::test]
async fn chat_manager_refuses_bad_arguments() {
    let f = conversation();
    for (args, field) in [
        (json!({}), "action"),
        (json!({"action": "delete_session"}), "action"),
        (json!({"action": "list_sessions", "count": 101}), "count"),
        (json!({"action": "list_sessions", "count": 0}), "count"),
        (json!({"action": "list_sessions", "offset": -1}), "offset"),
        (
            json!({"action": "list_sessions", "before_time": "today"}),
            "before_time",
        ),
        (
            json!({"action": "list_sessions", "before_time": 5, "after_time": 5}),
            "before_time",
        ),
        (
            json!({"action": "list_sessions", "session_id": "desktop:a"}),
            "session_id",
        ),
        (json!({"action": "list_messages"}), "session_id"),
        (
            json!({"action": "list_messages", "session_id": ""}),
            "session_id",
        ),
    ] {
        let error = f.err("chat_manager", args.clone()).await;
        assert_invalid(&error, field);
    }
    let unknown = f
        .err(
            "chat_manager",
            json!({"action": "list_messages", "session_id": "desktop:zzz"}),
        )
        .await;
    assert_eq!(unknown.kind, ErrorKind::NotFound);
}
