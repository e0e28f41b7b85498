//! Memory, job and history tools in an agent turn of each dialect: a memory stored in Chinese
//! is found again by the same turn; a job created from the chat is stored with that chat as its
//! target (PicoBot names channel and chat) and reported as saved but not scheduled (no
//! scheduler runs in the test); the history tools find the chat and its messages.

use hearth_core::DataDir;
use hearth_store::Store;
use hearth_tools::Dialect;
use serde_json::{json, Value};

use crate::dialect_turns::rig::turn;

const TEA: &str = "用户喜欢喝绿茶 (green tea)";

/// The Hearth/Echo calls: add a memory, search it with `query`, create a job on `schedule`, list.
fn memory_and_cronjob(query: &str, schedule: &str) -> Vec<(&'static str, Value)> {
    vec![
        (
            "memory",
            json!({"action": "add", "key": "tea", "content": TEA}),
        ),
        ("memory", json!({"action": "search", "query": query})),
        (
            "cronjob",
            json!({"action": "create", "name": "news", "schedule": schedule, "command": "Summarise the headlines"}),
        ),
        ("cronjob", json!({"action": "list"})),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memories_and_jobs_made_in_a_chat_in_every_dialect() {
    let every_hour = json!({"type": "every", "every_ms": 3_600_000});
    let cases: [(Dialect, Vec<(&str, Value)>); 4] = [
        (
            Dialect::Hearth,
            memory_and_cronjob("绿茶", "every weekday at 9:30"),
        ),
        (
            Dialect::Echo,
            memory_and_cronjob("green tea", "每天早上8点"),
        ),
        (
            Dialect::Picobot,
            vec![
                ("memory_store", json!({"key": "tea", "content": TEA})),
                ("memory_recall", json!({"query": "绿茶"})),
                (
                    "cron_add",
                    json!({"name": "news", "schedule": every_hour, "prompt": "Summarise the headlines", "channel": "desktop", "chat_id": "inbox"}),
                ),
                ("cron_list", json!({})),
            ],
        ),
        (
            Dialect::Ceecore,
            vec![
                ("search_memory", json!({"query": "绿茶"})),
                (
                    "schedule_task",
                    json!({"name": "news", "schedule": "0 8 * * *", "action": "Summarise the headlines"}),
                ),
            ],
        ),
    ];
    for (dialect, calls) in cases {
        let home = tempfile::tempdir().unwrap();
        let results = turn(home.path(), dialect, 9, &calls).await;
        assert_eq!(results.len(), calls.len(), "{dialect}: {results:?}");
        for (name, value, is_error) in &results {
            assert!(!is_error, "{dialect} {name}: {value}");
        }
        let text: Vec<String> = results.iter().map(|(_, v, _)| v.to_string()).collect();
        if dialect != Dialect::Ceecore {
            assert!(
                text[1].contains("绿茶"),
                "{dialect}: the memory is found: {}",
                text[1]
            );
            assert!(
                text[3].contains("news"),
                "{dialect}: the job is listed: {}",
                text[3]
            );
        }
        let created = &text[calls.len() - if dialect == Dialect::Ceecore { 1 } else { 2 }];
        assert!(
            created.contains("saved_not_scheduled"),
            "{dialect}: says nothing runs it: {created}"
        );

        let store = Store::open(&DataDir::at(home.path().to_path_buf()).database()).unwrap();
        let jobs = store.list_jobs().unwrap();
        assert_eq!(jobs.len(), 1, "{dialect}");
        assert_eq!(jobs[0].name, "news");
        assert!(jobs[0].prompt.contains("headlines"));
        let session = store.list_sessions().unwrap()[0].id.clone();
        if dialect == Dialect::Picobot {
            assert_eq!(
                jobs[0].target.as_deref(),
                Some("desktop:inbox"),
                "PicoBot names its chat"
            );
        } else if dialect != Dialect::Ceecore {
            assert_eq!(
                jobs[0].target.as_deref(),
                Some(session.as_str()),
                "{dialect}: delivers to the chat"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_tools_answer_in_an_agent_turn_of_every_dialect_that_has_them() {
    let search = (
        "session_search",
        json!({"query": "run it", "role_filter": "user"}),
    );
    let sessions = (
        "chat_manager",
        json!({"action": "list_sessions", "count": 10}),
    );
    let timeline = ("timeline_recall", json!({"query": "旅行 database"}));
    let cases: [(Dialect, Vec<(&str, Value)>); 3] = [
        (
            Dialect::Hearth,
            vec![search.clone(), sessions.clone(), timeline.clone()],
        ),
        (
            Dialect::Echo,
            vec![search, sessions.clone(), timeline.clone()],
        ),
        (Dialect::Picobot, vec![sessions, timeline]),
    ];
    for (dialect, calls) in cases {
        let home = tempfile::tempdir().unwrap();
        let results = turn(home.path(), dialect, 9, &calls).await;
        assert_eq!(results.len(), calls.len(), "{dialect}: {results:?}");
        for (name, value, is_error) in &results {
            assert!(!is_error, "{dialect} {name}: {value}");
            let listed = value.to_string();
            match name.as_str() {
                "session_search" => assert!(
                    listed.contains("[run]") && listed.contains("\"role\":\"user\""),
                    "{dialect}: {listed}"
                ),
                "chat_manager" => {
                    assert!(listed.contains("test:"), "{dialect}: the chat: {listed}")
                }
                _ => assert!(!listed.contains("error"), "{dialect}: {listed}"),
            }
        }
    }
}
