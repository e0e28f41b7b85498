//! No tool runs store work on the async runtime's own thread: on a runtime of one thread, a call
//! that reaches the store must leave that thread free while the store's connection is held
//! elsewhere (store work run inline would block it until the holder gave up).

use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::Duration;

use async_trait::async_trait;
use hearth_protocol::ArtifactSettings;
use hearth_store::{Db, Store, StoreError};
use hearth_tools::channels::{ChannelError, ChannelSink, Delivered, Outbound};
use hearth_tools::{
    register_artifacts, register_history, register_jobs, register_memory, register_notifications,
    register_planning, Dialect, Notice, Notifier, NotifyError, Registry, ToolContext,
};
use serde_json::{json, Value};

/// How long the holder waits to be released before it gives up (which fails the test).
const PATIENCE: Duration = Duration::from_secs(5);

/// Shows nothing, successfully.
struct Silent;

impl Notifier for Silent {
    fn show(&self, _: &Notice) -> Result<String, NotifyError> {
        Ok("1".into())
    }
}

/// No channel to deliver to (the artifact calls here deliver nothing).
struct Nowhere;

#[async_trait]
impl ChannelSink for Nowhere {
    fn supports_files(&self, _: &str) -> Option<bool> {
        None
    }

    fn names(&self) -> Vec<String> {
        Vec::new()
    }

    async fn deliver(&self, _: Outbound) -> Result<Delivered, ChannelError> {
        Err(ChannelError::Misconfigured("no channels here".into()))
    }
}

/// Every store-backed tool family of `dialect` over `db`.
fn registry(dialect: Dialect, db: &Db) -> Registry {
    let mut registry = Registry::new(dialect);
    let sink = Arc::new(Nowhere);
    let registered = register_memory(&mut registry, db.clone())
        .and_then(|()| register_history(&mut registry, db.clone()))
        .and_then(|()| register_planning(&mut registry, db.clone()))
        .and_then(|()| register_jobs(&mut registry, db.clone(), None))
        .and_then(|()| register_notifications(&mut registry, db.clone(), Arc::new(Silent)))
        .and_then(|()| {
            register_artifacts(&mut registry, db.clone(), sink, ArtifactSettings::default())
        });
    if let Err(e) = registered {
        panic!("register: {e}");
    }
    registry
}

/// Holds the store's only connection (an in-memory store reads and writes on one) on a thread
/// of its own, inside a transaction that writes nothing, until told to let go or
/// [`PATIENCE`] passed; it answers whether it was told.
fn hold(store: Arc<Store>) -> (mpsc::Sender<()>, JoinHandle<bool>) {
    let (held, holding) = mpsc::channel();
    let (release, released) = mpsc::channel::<()>();
    let holder = std::thread::spawn(move || {
        let mut told = false;
        let _nothing = store.change_todo_list("holder", |_| {
            let _ = held.send(());
            told = released.recv_timeout(PATIENCE).is_ok();
            Err(StoreError::Invalid {
                field: "holder",
                message: "writes nothing".into(),
            })
        });
        told
    });
    if holding.recv_timeout(PATIENCE).is_err() {
        panic!("the holder never held the connection");
    }
    (release, holder)
}

#[tokio::test(flavor = "current_thread")]
async fn tool_calls_leave_the_runtime_thread_free_while_the_store_is_busy() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open_in_memory().unwrap());
    let db = Db::new(store.clone());
    let ctx = ToolContext::new(dir.path().join("workspace"), dir.path().into(), "desktop:s");
    let calls: [(Dialect, &str, Value); 16] = [
        (Dialect::Hearth, "memory", json!({"action": "list"})),
        (
            Dialect::Hearth,
            "memory",
            json!({"action": "add", "content": "tea, not coffee"}),
        ),
        (Dialect::Hearth, "session_search", json!({"query": "tea"})),
        (
            Dialect::Hearth,
            "chat_manager",
            json!({"action": "list_sessions"}),
        ),
        (Dialect::Hearth, "timeline_recall", json!({"query": "tea"})),
        (Dialect::Hearth, "todo", json!({"action": "list"})),
        (
            Dialect::Hearth,
            "todo",
            json!({"action": "create", "title": "brew"}),
        ),
        (
            Dialect::Hearth,
            "task",
            json!({"action": "create", "title": "brew"}),
        ),
        (Dialect::Hearth, "workflow", json!({"action": "list"})),
        (Dialect::Hearth, "cronjob", json!({"action": "list"})),
        (
            Dialect::Hearth,
            "cronjob",
            json!({"action": "create", "name": "tea", "schedule": "0 8 * * *", "command": "tea"}),
        ),
        (Dialect::Picobot, "cron_list", json!({})),
        (Dialect::Ceecore, "search_memory", json!({"query": "tea"})),
        (
            Dialect::Hearth,
            "send_notification",
            json!({"title": "Tea", "message": "ready"}),
        ),
        (
            Dialect::Hearth,
            "artifact_create",
            json!({"filename": "tea.md"}),
        ),
        (
            Dialect::Hearth,
            "artifact_validate",
            json!({"artifact_id": "art_none"}),
        ),
    ];
    for (dialect, tool, args) in calls {
        let registry = registry(dialect, &db);
        let (release, holder) = hold(store.clone());
        let text = args.to_string();
        let call = registry.dispatch(tool, &text, &ctx);
        // Lets go a moment after the call started: store work run inline blocks the thread
        // before this runs, and the holder then gives up.
        let let_go = async {
            tokio::time::sleep(Duration::from_millis(20)).await;
            let _ = release.send(());
        };
        let (outcome, ()) = tokio::join!(call, let_go);
        assert!(
            holder.join().unwrap(),
            "{tool} {args} ran store work on the runtime's thread: {outcome:?}"
        );
    }
}
