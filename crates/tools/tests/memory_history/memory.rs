//! The `memory` tool: every action, Chinese and English search, ranking, key overwrite,
//! contradictions and precedence, and malformed arguments.

use crate::memory_history::{assert_invalid, column, Fixture};
use hearth_tools::ErrorKind;
use serde_json::{json, Value};

async fn add(f: &Fixture, args: Value) -> Value {
    let mut args = args;
    args["action"] = json!("add");
    f.ok("memory", args).await
}

async fn search(f: &Fixture, query: &str) -> Vec<Value> {
    let found = f
        .ok("memory", json!({"action": "search", "query": query}))
        .await;
    column(&found, "results", "content")
}

#[tokio::test]
async fn search_finds_chinese_and_english_memories() {
    let f = Fixture::open();
    let tea = add(
        &f,
        json!({"content": "用户喜欢喝绿茶", "source": "user_stated"}),
    )
    .await;
    assert_eq!(tea["status"], "added");
    assert_eq!(tea["memory"]["source"], "user_stated");
    assert_eq!(tea["memory"]["target"], "user");
    assert_eq!(tea["memory"]["importance"], 0.5);
    add(&f, json!({"content": "prefers dark roast coffee"})).await;
    assert_eq!(search(&f, "绿茶").await, [json!("用户喜欢喝绿茶")]);
    assert_eq!(search(&f, "喜欢").await, [json!("用户喜欢喝绿茶")]);
    assert_eq!(
        search(&f, "coffee").await,
        [json!("prefers dark roast coffee")]
    );
    assert_eq!(
        search(&f, "Coffee ROAST").await,
        [json!("prefers dark roast coffee")]
    );
    assert!(search(&f, "红茶").await.is_empty());
    let both = f
        .ok(
            "memory",
            json!({"action": "search", "query": "绿茶 coffee"}),
        )
        .await;
    assert_eq!(both["total"], 2);
}

#[tokio::test]
async fn ranking_puts_pinned_then_important_memories_first() {
    let f = Fixture::open();
    add(
        &f,
        json!({"content": "likes jazz music", "importance": 0.1}),
    )
    .await;
    add(
        &f,
        json!({"content": "likes jazz concerts", "importance": 0.9}),
    )
    .await;
    add(
        &f,
        json!({"content": "jazz vinyl collection", "importance": 0.0, "pinned": true}),
    )
    .await;
    assert_eq!(
        search(&f, "jazz").await,
        [
            json!("jazz vinyl collection"),
            json!("likes jazz concerts"),
            json!("likes jazz music")
        ]
    );
}

#[tokio::test]
async fn add_with_an_existing_key_overwrites() {
    let f = Fixture::open();
    let first = add(
        &f,
        json!({"content": "uses vim", "key": "editor", "tags": "tools, Editor"}),
    )
    .await;
    assert_eq!(first["memory"]["tags"], json!(["tools", "editor"]));
    f.tick();
    let second = add(&f, json!({"content": "uses helix", "key": "editor"})).await;
    assert_eq!(second["status"], "overwritten");
    assert_eq!(second["previous_content"], "uses vim");
    assert_eq!(second["memory"]["id"], first["memory"]["id"]);
    assert!(second["memory"]["updated_at"].as_i64() > first["memory"]["updated_at"].as_i64());
    assert_eq!(search(&f, "helix").await.len(), 1);
    assert!(search(&f, "vim").await.is_empty());
    let again = add(&f, json!({"content": "uses helix", "key": "editor"})).await;
    assert_eq!(again["status"], "duplicate");
}

#[tokio::test]
async fn contradictions_are_listed_and_resolved() {
    let f = Fixture::open();
    let three = add(
        &f,
        json!({"content": "用户每天喝3杯咖啡", "source": "user_stated"}),
    )
    .await;
    let five = add(
        &f,
        json!({"content": "用户每天喝5杯咖啡", "source": "user_stated"}),
    )
    .await;
    assert_eq!(five["status"], "added");
    assert!(five["note"]
        .as_str()
        .is_some_and(|n| n.contains("both are kept")));
    let listed = f
        .ok("memory", json!({"action": "list_contradictions"}))
        .await;
    assert_eq!(listed["total"], 1);
    let contradiction = &listed["contradictions"][0];
    assert_eq!(contradiction["memory_a"], three["memory"]["id"]);
    assert_eq!(contradiction["memory_b"], five["memory"]["id"]);
    assert_eq!(contradiction["status"], "open");
    let id = contradiction["id"].to_string();
    let winner = five["memory"]["id"].to_string();
    let resolved = f
        .ok(
            "memory",
            json!({"action": "resolve_contradiction", "contradiction_id": id, "winner_id": winner}),
        )
        .await;
    assert_eq!(resolved["status"], "resolved");
    assert_eq!(resolved["winner"]["content"], "用户每天喝5杯咖啡");
    assert_eq!(resolved["removed_id"], three["memory"]["id"]);
    assert_eq!(resolved["contradiction"]["winner_id"], five["memory"]["id"]);
    assert_eq!(search(&f, "咖啡").await, [json!("用户每天喝5杯咖啡")]);
    let empty = f
        .ok("memory", json!({"action": "list_contradictions"}))
        .await;
    assert_eq!(empty["total"], 0);
    let again = f
        .err(
            "memory",
            json!({"action": "resolve_contradiction", "contradiction_id": id, "winner_id": winner}),
        )
        .await;
    assert_invalid(&again, "contradiction_id");
    let unknown = f
        .err(
            "memory",
            json!({"action": "resolve_contradiction", "contradiction_id": 999, "winner_id": 1}),
        )
        .await;
    assert_eq!(unknown.kind, ErrorKind::NotFound);
}

#[tokio::test]
async fn user_statements_outrank_model_inferences() {
    let f = Fixture::open();
    let stated = add(
        &f,
        json!({"content": "prefers dark roast coffee", "source": "user_stated"}),
    )
    .await;
    let inferred = add(&f, json!({"content": "doesn't prefer dark roast coffee"})).await;
    assert_eq!(inferred["status"], "held_back");
    assert_eq!(inferred["memory"]["pending"], true);
    assert_eq!(inferred["contradiction"]["held_back"], true);
    assert_eq!(
        search(&f, "roast").await,
        [json!("prefers dark roast coffee")]
    );
    let other = add(&f, json!({"content": "lives in Berlin"})).await;
    let wrong = f
        .err(
            "memory",
            json!({
                "action": "resolve_contradiction",
                "contradiction_id": inferred["contradiction"]["id"],
                "winner_id": other["memory"]["id"],
            }),
        )
        .await;
    assert_invalid(&wrong, "winner_id");

    let model = add(
        &f,
        json!({"content": "works 4 days a week", "source": "model_inferred"}),
    )
    .await;
    let user = add(
        &f,
        json!({"content": "works 5 days a week", "source": "user_stated"}),
    )
    .await;
    assert_eq!(user["status"], "overwritten");
    assert_eq!(user["memory"]["id"], model["memory"]["id"]);
    assert_eq!(user["previous_content"], "works 4 days a week");
    assert_eq!(user["contradiction"]["status"], "resolved");
    assert_eq!(stated["memory"]["pending"], false);
}

#[tokio::test]
async fn replace_and_remove_by_key_or_text() {
    let f = Fixture::open();
    add(&f, json!({"content": "has a cat named Tom", "key": "pet"})).await;
    add(&f, json!({"content": "works in Potsdam"})).await;
    add(&f, json!({"content": "works remotely on Fridays"})).await;
    let replaced = f
        .ok("memory", json!({"action": "replace", "key": "pet", "content": "has a dog named Rex", "pinned": true}))
        .await;
    assert_eq!(replaced["status"], "replaced");
    assert_eq!(replaced["previous_content"], "has a cat named Tom");
    assert_eq!(replaced["memory"]["pinned"], true);
    let by_text = f
        .ok(
            "memory",
            json!({"action": "replace", "old_text": "Potsdam", "content": "works in Berlin"}),
        )
        .await;
    assert_eq!(by_text["memory"]["content"], "works in Berlin");
    let ambiguous = f
        .err("memory", json!({"action": "remove", "old_text": "works"}))
        .await;
    assert_invalid(&ambiguous, "old_text");
    assert!(
        ambiguous.message.contains("matches 2 memories"),
        "{}",
        ambiguous.message
    );
    let removed = f
        .ok("memory", json!({"action": "remove", "old_text": "Fridays"}))
        .await;
    assert_eq!(removed["memory"]["content"], "works remotely on Fridays");
    f.ok("memory", json!({"action": "remove", "key": "pet"}))
        .await;
    let gone = f
        .err("memory", json!({"action": "remove", "key": "pet"}))
        .await;
    assert_eq!(gone.kind, ErrorKind::NotFound);
    let missing = f
        .err(
            "memory",
            json!({"action": "replace", "old_text": "nowhere", "content": "x"}),
        )
        .await;
    assert_eq!(missing.kind, ErrorKind::NotFound);
    let listed = f.ok("memory", json!({"action": "list"})).await;
    assert_eq!(
        column(&listed, "memories", "content"),
        [json!("works in Berlin")]
    );
    assert_eq!(listed["total"], 1);
}

#[tokio::test]
async fn list_and_search_filter_by_tags_and_target() {
    let f = Fixture::open();
    add(&f, json!({"content": "backup server is nas01", "tags": ["ops", "backup"], "target": "environment"})).await;
    add(
        &f,
        json!({"content": "server admin is the user", "tags": ["ops"]}),
    )
    .await;
    let tagged = f
        .ok("memory", json!({"action": "list", "tags": "backup"}))
        .await;
    assert_eq!(
        column(&tagged, "memories", "content"),
        [json!("backup server is nas01")]
    );
    let env = f
        .ok(
            "memory",
            json!({"action": "search", "query": "server", "target": "environment"}),
        )
        .await;
    assert_eq!(
        column(&env, "results", "content"),
        [json!("backup server is nas01")]
    );
    let both = f
        .ok(
            "memory",
            json!({"action": "search", "query": "server", "tags": ["OPS"]}),
        )
        .await;
    assert_eq!(both["total"], 2);
}

#[tokio::test]
async fn malformed_arguments_are_refused_with_the_field() {
    let f = Fixture::open();
    for (args, field) in [
        (json!({}), "action"),
        (json!({"action": "forget"}), "action"),
        (json!({"action": "add"}), "content"),
        (json!({"action": "add", "content": ""}), "content"),
        (
            json!({"action": "add", "content": "x".repeat(10_001)}),
            "content",
        ),
        (
            json!({"action": "add", "content": "x", "importance": 1.5}),
            "importance",
        ),
        (
            json!({"action": "add", "content": "x", "source": "guess"}),
            "source",
        ),
        (
            json!({"action": "add", "content": "x", "target": "world"}),
            "target",
        ),
        (
            json!({"action": "add", "content": "x", "winner_id": 1}),
            "winner_id",
        ),
        (
            json!({"action": "add", "content": "x", "pinned": "yes"}),
            "pinned",
        ),
        (
            json!({"action": "add", "content": "x", "tags": (0..21).map(|n| n.to_string()).collect::<Vec<_>>()}),
            "tags",
        ),
        (
            json!({"action": "add", "content": "x", "colour": "red"}),
            "colour",
        ),
        (json!({"action": "replace", "content": "x"}), "key"),
        (json!({"action": "replace", "key": "k"}), "content"),
        (
            json!({"action": "replace", "key": "k", "old_text": "t", "content": "x"}),
            "old_text",
        ),
        (json!({"action": "remove"}), "key"),
        (
            json!({"action": "remove", "key": "k", "content": "x"}),
            "content",
        ),
        (json!({"action": "search"}), "query"),
        (
            json!({"action": "search", "query": "x", "importance": 1}),
            "importance",
        ),
        (json!({"action": "list", "query": "x"}), "query"),
        (json!({"action": "list_contradictions", "key": "x"}), "key"),
        (
            json!({"action": "resolve_contradiction", "winner_id": 1}),
            "contradiction_id",
        ),
        (
            json!({"action": "resolve_contradiction", "contradiction_id": 1}),
            "winner_id",
        ),
        (
            json!({"action": "resolve_contradiction", "contradiction_id": "abc", "winner_id": 1}),
            "contradiction_id",
        ),
        (
            json!({"action": "resolve_contradiction", "contradiction_id": 1, "winner_id": 2.5}),
            "winner_id",
        ),
    ] {
        let error = f.err("memory", args.clone()).await;
        assert_invalid(&error, field);
    }
    let text = f
        .registry(hearth_tools::Dialect::Hearth)
        .dispatch("memory", "{not json", &f.context())
        .await;
    assert_eq!(
        text.err().map(|e| e.kind),
        Some(ErrorKind::InvalidArguments)
    );
}
