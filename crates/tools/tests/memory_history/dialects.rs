//! The memory and history tools per dialect: names, schemas (snapshots), facts against the
//! policy catalogue, and the PicoBot and CeeCore shapes.

use crate::memory_history::{assert_invalid, column, Fixture};
use hearth_policy::{canonical_tool, ToolProfile};
use hearth_tools::{Dialect, ErrorKind};
use serde_json::json;

#[test]
fn each_dialect_gets_its_names_with_catalogue_facts() {
    let f = Fixture::open();
    let expected: [(Dialect, &[&str]); 4] = [
        (
            Dialect::Hearth,
            &[
                "chat_manager",
                "memory",
                "session_search",
                "timeline_recall",
            ],
        ),
        (
            Dialect::Echo,
            &[
                "chat_manager",
                "memory",
                "session_search",
                "timeline_recall",
            ],
        ),
        (
            Dialect::Picobot,
            &[
                "chat_manager",
                "memory_forget",
                "memory_recall",
                "memory_store",
                "timeline_recall",
            ],
        ),
        (Dialect::Ceecore, &["search_memory"]),
    ];
    for (dialect, names) in expected {
        let registry = f.registry(dialect);
        let specs = registry.specs(ToolProfile::Full);
        let listed: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(listed, names, "{dialect}");
        for spec in &specs {
            let facts = registry.facts(&spec.name);
            let canonical = facts.as_ref().and_then(|f| canonical_tool(&f.name));
            assert_eq!(facts, canonical.map(|c| c.facts()), "{}", spec.name);
        }
        insta::assert_json_snapshot!(format!("memory_history_{dialect}"), specs);
    }
}

#[tokio::test]
async fn searching_and_listing_memories_only_read_in_every_dialect() {
    let f = Fixture::open();
    use Dialect::{Ceecore, Echo, Hearth, Picobot};
    let (reads, writes) = (false, true);
    let cases = [
        (
            Hearth,
            "memory",
            r#"{"action":"search","query":"tea"}"#,
            reads,
        ),
        (Echo, "memory", r#"{"action":"list"}"#, reads),
        (
            Hearth,
            "memory",
            r#"{"action":"list_contradictions"}"#,
            reads,
        ),
        (
            Hearth,
            "memory",
            r#"{"action":"add","content":"x"}"#,
            writes,
        ),
        (Echo, "memory", r#"{"action":"remove","key":"k"}"#, writes),
        (Picobot, "memory_recall", r#"{"query":"tea"}"#, reads),
        (
            Picobot,
            "memory_store",
            r#"{"key":"k","content":"x"}"#,
            writes,
        ),
        (Picobot, "memory_forget", r#"{"key":"k"}"#, writes),
        (Ceecore, "search_memory", r#"{"query":"tea"}"#, reads),
    ];
    for (dialect, tool, args, mutates) in cases {
        let call = f.registry(dialect).prepare(tool, args).await;
        let facts = call.map(|c| (c.facts.name, c.facts.mutates, c.facts.high_risk));
        assert_eq!(
            facts.ok(),
            Some(("memory".to_string(), mutates, false)),
            "{dialect} {tool} {args}"
        );
    }
}

#[test]
fn profiles_expose_history_before_memory() {
    let f = Fixture::open();
    let registry = f.registry(Dialect::Hearth);
    let minimal: Vec<String> = registry
        .specs(ToolProfile::Minimal)
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(
        minimal,
        ["chat_manager", "session_search", "timeline_recall"]
    );
    let messaging = registry.specs(ToolProfile::Messaging);
    assert!(messaging.iter().any(|s| s.name == "memory"));
}

#[tokio::test]
async fn picobot_stores_recalls_and_forgets_by_key() {
    let f = Fixture::open();
    let pico = Dialect::Picobot;
    let stored = f
        .ok_in(
            pico,
            "memory_store",
            json!({"key": "tea", "content": "用户喜欢喝绿茶", "importance": 0.8}),
        )
        .await;
    assert_eq!(stored["status"], "added");
    assert_eq!(stored["memory"]["category"], "knowledge");
    assert_eq!(stored["memory"]["source"], "model_inferred");
    f.tick();
    let cut = stored["memory"]["updated_at"].as_i64().unwrap_or_default() + 1;
    let over = f
        .ok_in(
            pico,
            "memory_store",
            json!({"key": "tea", "content": "用户喜欢喝乌龙茶"}),
        )
        .await;
    assert_eq!(over["status"], "overwritten");
    f.ok_in(
        pico,
        "memory_store",
        json!({"key": "coffee", "content": "prefers dark roast coffee"}),
    )
    .await;
    let recalled = f
        .ok_in(pico, "memory_recall", json!({"query": "乌龙茶"}))
        .await;
    assert_eq!(
        column(&recalled, "results", "content"),
        [json!("用户喜欢喝乌龙茶")]
    );
    let since = f
        .ok_in(
            pico,
            "memory_recall",
            json!({"query": "coffee 茶", "since": cut}),
        )
        .await;
    assert_eq!(since["total"], 2, "both were written after the cut");
    let until = f
        .ok_in(
            pico,
            "memory_recall",
            json!({"query": "coffee 茶", "until": cut - 1}),
        )
        .await;
    assert_eq!(until["total"], 0);
    let limited = f
        .ok_in(
            pico,
            "memory_recall",
            json!({"query": "coffee 茶", "limit": 1}),
        )
        .await;
    assert_eq!(
        (
            limited["results"].as_array().map(Vec::len),
            limited["total"].clone()
        ),
        (Some(1), json!(2))
    );
    let forgot = f.ok_in(pico, "memory_forget", json!({"key": "tea"})).await;
    assert_eq!(forgot["status"], "removed");
    let again = f.err_in(pico, "memory_forget", json!({"key": "tea"})).await;
    assert_eq!(again.kind, ErrorKind::NotFound);
}

#[tokio::test]
async fn picobot_arguments_are_checked() {
    let f = Fixture::open();
    let pico = Dialect::Picobot;
    for (tool, args, field) in [
        ("memory_store", json!({"content": "x"}), "key"),
        ("memory_store", json!({"key": "k"}), "content"),
        (
            "memory_store",
            json!({"key": "k", "content": "x", "importance": -0.1}),
            "importance",
        ),
        (
            "memory_store",
            json!({"key": "k", "content": "x", "pinned": true}),
            "pinned",
        ),
        ("memory_recall", json!({}), "query"),
        ("memory_recall", json!({"query": "x", "limit": 51}), "limit"),
        ("memory_recall", json!({"query": "x", "limit": 0}), "limit"),
        ("memory_recall", json!({"query": "x", "since": -5}), "since"),
        (
            "memory_recall",
            json!({"query": "x", "since": 10, "until": 5}),
            "until",
        ),
        (
            "memory_recall",
            json!({"query": "x", "since": "yesterday"}),
            "since",
        ),
        ("memory_forget", json!({}), "key"),
        ("memory_forget", json!({"key": ""}), "key"),
    ] {
        let error = f.err_in(pico, tool, args.clone()).await;
        assert_invalid(&error, field);
    }
}

#[tokio::test]
async fn ceecore_search_memory_answers_results_and_total() {
    let f = Fixture::open();
    f.store
        .add_memory(&hearth_store::NewMemory {
            category: Some("preference".into()),
            ..hearth_store::NewMemory::new(
                "用户喜欢简洁的回复风格",
                hearth_store::MemorySource::UserStated,
            )
        })
        .map(|_| ())
        .unwrap_or_else(|e| panic!("{e}"));
    f.store
        .add_memory(&hearth_store::NewMemory::new(
            "回复时使用中文",
            hearth_store::MemorySource::UserStated,
        ))
        .map(|_| ())
        .unwrap_or_else(|e| panic!("{e}"));
    let cee = Dialect::Ceecore;
    let found = f
        .ok_in(cee, "search_memory", json!({"query": "回复", "limit": 5}))
        .await;
    assert_eq!(found["total"], 2);
    let first = &found["results"][0];
    let keys: Vec<&String> = first
        .as_object()
        .map(|o| o.keys().collect())
        .unwrap_or_default();
    assert_eq!(keys, ["category", "content", "timestamp"]);
    let timestamp = first["timestamp"].as_str().unwrap_or_default();
    assert!(
        chrono::DateTime::parse_from_rfc3339(timestamp).is_ok() && timestamp.ends_with('Z'),
        "{timestamp}"
    );
    let preference = f
        .ok_in(
            cee,
            "search_memory",
            json!({"query": "回复", "category": "preference"}),
        )
        .await;
    assert_eq!(
        preference,
        json!({"results": [{
            "content": "用户喜欢简洁的回复风格",
            "category": "preference",
            "timestamp": preference["results"][0]["timestamp"],
        }], "total": 1})
    );
    let none = f
        .ok_in(cee, "search_memory", json!({"query": "天气"}))
        .await;
    assert_eq!(none, json!({"results": [], "total": 0}));
    for (args, field) in [
        (json!({"query": "x", "limit": 51}), "limit"),
        (json!({}), "query"),
        (json!({"query": ""}), "query"),
        (json!({"query": "x", "category": ""}), "category"),
        (json!({"query": "x", "tags": ["a"]}), "tags"),
    ] {
        let error = f.err_in(cee, "search_memory", args.clone()).await;
        assert_invalid(&error, field);
    }
}
