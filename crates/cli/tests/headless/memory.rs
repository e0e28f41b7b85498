//! `hearth-cli memory`: add, list, search in Chinese and English, remove.

use hearth_tests::ScriptedServer;

use crate::headless::support::Home;

#[tokio::test]
async fn memories_are_added_found_in_chinese_and_english_and_removed() {
    let server = ScriptedServer::start().await;
    let home = Home::new(&server);
    home.ok(&[
        "memory",
        "add",
        "用户喜欢喝乌龙茶，不加糖",
        "--key",
        "drink",
    ])
    .await;
    home.ok(&[
        "memory",
        "add",
        "The staging server is called orion and runs Debian",
        "--target",
        "environment",
        "--tags",
        "servers,staging",
        "--importance",
        "0.9",
    ])
    .await;
    home.ok(&["memory", "add", "Prefers meetings after 10am", "--pinned"])
        .await;

    let found = home.json(&["memory", "search", "乌龙茶", "--json"]).await;
    assert_eq!(found["total"], 1, "{found}");
    assert!(found["memories"][0]["content"]
        .as_str()
        .unwrap()
        .contains("乌龙茶"));

    let found = home
        .json(&["memory", "search", "staging server", "--json"])
        .await;
    assert!(
        found["memories"][0]["content"]
            .as_str()
            .unwrap()
            .contains("orion"),
        "{found}"
    );

    let listed = home.json(&["memory", "list", "--json"]).await;
    assert_eq!(listed["total"], 3);
    assert_eq!(
        listed["memories"][0]["pinned"], true,
        "pinned first: {listed}"
    );

    let removed = home.ok(&["memory", "remove", "--key", "drink"]).await;
    assert!(removed.starts_with("removed"), "{removed}");
    let found = home.json(&["memory", "search", "乌龙茶", "--json"]).await;
    assert_eq!(found["total"], 0, "{found}");
    let id = listed["memories"][0]["id"].as_i64().unwrap().to_string();
    home.ok(&["memory", "remove", &id]).await;
    let listed = home.json(&["memory", "list", "--json"]).await;
    assert_eq!(listed["total"], 1);
}
