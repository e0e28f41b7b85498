//! `timeline_recall` over session summaries written through the store.

use crate::memory_history::{assert_invalid, column, Fixture};
use hearth_protocol::Role;
use hearth_tools::Dialect;
use serde_json::json;

fn summarized() -> (Fixture, i64) {
    let f = Fixture::open();
    f.session("desktop:trip", "Trip planning");
    f.session("desktop:db", "Database");
    let first = f.say("desktop:trip", Role::User, "plan a trip");
    let last = f.say("desktop:trip", Role::Assistant, "done");
    let summary = |session: &str, text: &str, from: i64, to: i64| {
        f.store
            .add_session_summary(session, text, from, to)
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let trip = summary(
        "desktop:trip",
        "用户计划去京都旅行，预算两万元，偏好温泉旅馆。",
        first.id,
        last.id,
    );
    f.tick();
    let db = f.say("desktop:db", Role::User, "migrate");
    summary(
        "desktop:db",
        "Migrated the Postgres database to version 16; backups verified.",
        db.id,
        db.id,
    );
    (f, trip.created_at)
}

#[tokio::test]
async fn summaries_are_found_by_chinese_and_english_keywords() {
    let (f, trip_at) = summarized();
    let kyoto = f.ok("timeline_recall", json!({"query": "京都"})).await;
    assert_eq!(
        column(&kyoto, "results", "session_id"),
        [json!("desktop:trip")]
    );
    let hit = &kyoto["results"][0];
    assert_eq!(hit["session_title"], "Trip planning");
    assert!(hit["from_message_id"].as_i64() < hit["to_message_id"].as_i64());
    let postgres = f
        .ok("timeline_recall", json!({"query": "postgres backup"}))
        .await;
    assert_eq!(
        column(&postgres, "results", "session_id"),
        [json!("desktop:db")]
    );
    let either = f
        .ok("timeline_recall", json!({"query": "旅行 database"}))
        .await;
    assert_eq!(either["results"].as_array().map(Vec::len), Some(2));
    let scoped = f
        .ok(
            "timeline_recall",
            json!({"query": "旅行 database", "session_id": "desktop:db"}),
        )
        .await;
    assert_eq!(
        column(&scoped, "results", "session_id"),
        [json!("desktop:db")]
    );
    let since = f
        .ok(
            "timeline_recall",
            json!({"query": "旅行 database", "since": trip_at + 1}),
        )
        .await;
    assert_eq!(
        column(&since, "results", "session_id"),
        [json!("desktop:db")]
    );
    let until = f
        .ok(
            "timeline_recall",
            json!({"query": "旅行 database", "until": trip_at}),
        )
        .await;
    assert_eq!(
        column(&until, "results", "session_id"),
        [json!("desktop:trip")]
    );
    let limited = f
        .ok(
            "timeline_recall",
            json!({"query": "旅行 database", "limit": 1}),
        )
        .await;
    assert_eq!(limited["results"].as_array().map(Vec::len), Some(1));
    let picobot = f
        .ok_in(
            Dialect::Picobot,
            "timeline_recall",
            json!({"query": "温泉"}),
        )
        .await;
    assert_eq!(
        column(&picobot, "results", "session_id"),
        [json!("desktop:trip")]
    );
    let nothing = f
        .ok("timeline_recall", json!({"query": "spreadsheet"}))
        .await;
    assert_eq!(nothing["results"], json!([]));
}

#[tokio::test]
async fn timeline_recall_refuses_bad_arguments() {
    let (f, _) = summarized();
    for (args, field) in [
        (json!({}), "query"),
        (json!({"query": ""}), "query"),
        (json!({"query": "x", "limit": 51}), "limit"),
        (json!({"query": "x", "since": 10, "until": 9}), "until"),
        (json!({"query": "x", "since": -1}), "since"),
        (json!({"query": "x", "session_id": 7}), "session_id"),
        (json!({"query": "x", "sessions": "a"}), "sessions"),
    ] {
        let error = f.err("timeline_recall", args.clone()).await;
        assert_invalid(&error, field);
    }
}
