//! What reaches the database and the logs: a reply cut by `kill -9` is kept as interrupted; the
//! API key never is; a session runs one turn at a time across processes.

use super::*;

fn wal_and_db_bytes(db: &Path) -> Vec<u8> {
    let mut bytes = std::fs::read(db).unwrap();
    let wal = db.with_extension("db-wal");
    if wal.exists() {
        bytes.extend(std::fs::read(wal).unwrap());
    }
    bytes
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

#[tokio::test(flavor = "multi_thread")]
async fn kill_mid_stream_keeps_the_user_message_and_marks_the_reply_interrupted() {
    let server = ScriptedServer::start().await;
    let long: String = (0..400).map(|i| format!("word{i} ")).collect();
    server.push(Reply::text(&long).with_chunk_delay(20));
    let cli = Cli::new();
    let base = server.openai_base();
    let mut child = cli
        .command()
        .args([
            "--provider",
            "openai",
            "--base-url",
            &base,
            "--model",
            "m",
            "chat",
            "remember me",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until part of the reply has been flushed to the database, then kill -9.
    let db = cli.db();
    let partial = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if let Some(text) = streaming_text(&db) {
                if text.contains("word3") {
                    return text;
                }
            }
        }
    })
    .await
    .expect("the reply was never flushed while streaming");
    let pid = child.id().unwrap();
    std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    let _ = child.wait().await;

    // Any next start recovers the row.
    let list = cli.run(&["sessions", "list", "--json"]).await;
    assert!(list.status.success(), "{}", text(&list.stderr));
    let sessions: Value = serde_json::from_slice(&list.stdout).unwrap();
    let id = sessions[0]["id"].as_str().unwrap().to_string();
    let shown = cli.session_json(&id).await;
    let messages = shown["messages"].as_array().unwrap();
    assert_eq!(messages[0]["role"], "user");
    assert_eq!(messages[0]["content"][0]["text"], "remember me");
    assert_eq!(messages[1]["role"], "assistant");
    assert_eq!(messages[1]["status"], "interrupted");
    let kept = messages[1]["content"][0]["text"].as_str().unwrap();
    assert!(
        kept.starts_with(partial.trim_end()) || kept.len() >= partial.len(),
        "{kept}"
    );
    assert!(kept.len() < long.len(), "the reply should be partial");

    let conn = rusqlite::Connection::open(&db).unwrap();
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok");
}

fn streaming_text(db: &Path) -> Option<String> {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .ok()?;
    conn.query_row(
        "SELECT text FROM messages WHERE role = 'assistant' AND status = 'streaming'",
        [],
        |r| r.get::<_, String>(0),
    )
    .ok()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_api_key_never_reaches_the_database_or_the_logs() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "calculator",
        json!({"action": "sum", "values": [1, 2]}),
    ));
    server.push(Reply::text("3"));
    let cli = Cli::new();
    let out = cli.chat(&server, "openai", "add 1 and 2").await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The key did reach the provider…
    let auth = server.requests()[0]
        .headers
        .get("authorization")
        .cloned()
        .unwrap_or_default();
    assert_eq!(auth, format!("Bearer {SENTINEL_KEY}"));
    // …and nowhere else.
    assert!(!contains(&wal_and_db_bytes(&cli.db()), SENTINEL_KEY));
    let logs = std::fs::read_dir(cli.home.path().join("logs")).unwrap();
    let mut logged = 0;
    for entry in logs {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        logged += bytes.len();
        assert!(!contains(&bytes, SENTINEL_KEY));
    }
    assert!(logged > 0, "trace logging should have written something");
    assert!(!contains(&out.stdout, SENTINEL_KEY) && !contains(&out.stderr, SENTINEL_KEY));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_session_runs_one_turn_at_a_time_across_processes_and_a_dead_ones_claim_lapses() {
    let server = ScriptedServer::start().await;
    let long: String = (0..400).map(|i| format!("w{i} ")).collect();
    server.push(Reply::text(&long).with_chunk_delay(20));
    let cli = Cli::new();
    let base = server.openai_base();
    let flags = ["--provider", "openai", "--base-url", &base, "--model", "m"];
    let mut first = cli
        .command()
        .args(flags)
        .args(["chat", "first"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let db = cli.db();
    tokio::time::timeout(Duration::from_secs(30), async {
        while !streaming_text(&db).is_some_and(|t| t.contains("w3")) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the first turn never streamed");
    let list = cli.run(&["sessions", "list", "--json"]).await;
    let sessions: Value = serde_json::from_slice(&list.stdout).unwrap();
    let id = sessions[0]["id"].as_str().unwrap().to_string();

    let mut second = flags.to_vec();
    second.extend(["chat", "--session", &id, "second"]);
    let out = cli.run(&second).await;
    assert_one_line_error(
        &out,
        &format!(
            "another Hearth process (the app or hearth-cli) is running a turn in session '{id}'"
        ),
    )
    .await;

    // The first process dies holding the claim: the next turn takes the session over.
    let pid = first.id().unwrap();
    std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    let _ = first.wait().await;
    server.push(Reply::text("after"));
    let mut third = flags.to_vec();
    third.extend(["chat", "--session", &id, "third"]);
    let out = cli.run(&third).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = cli.session_json(&id).await;
    let users: Vec<&str> = shown["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
        .map(|m| m["content"][0]["text"].as_str().unwrap())
        .collect();
    assert_eq!(users, ["first", "third"], "the refused turn stored nothing");
}
