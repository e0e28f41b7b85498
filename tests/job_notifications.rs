//! The agent job executor notifies through the OS service: a finished run when the job asks for
//! it, a failed run always, nothing for a quiet job. The model is the scripted server (Ollama
//! wire, no key needed); notifications reach a fake `org.freedesktop.Notifications` over
//! D-Bus through the engine's notify-rust adapter; a click on a job notice opens its chat; job
//! notices count toward the hourly limit, failures always pass. Needs a D-Bus session
//! (`scripts/with-headless-session.sh`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Mutex};

use hearth_core::{DataDir, KeyringStore, Notice, Notifier, NotifyError, OnClick};
use hearth_engine::{AgentJobExecutor, OsNotifier};
use hearth_protocol::{ProviderEntry, Settings};
use hearth_scheduler::{JobExecutor, RunRequest};
use hearth_store::{
    NewJob, NewSession, NotificationReservation, NotificationStatus, Store, NOTIFICATIONS_PER_HOUR,
};
use hearth_tests::notification_server::NotificationServer;
use hearth_tests::{Reply, ScriptedServer};

fn job(store: &Store, name: &str, target: &str, notify: bool) -> RunRequest {
    let job = store
        .create_job(
            &NewJob {
                name: name.to_string(),
                schedule: r#"{"type":"every","every_ms":3600000}"#.to_string(),
                tz: "UTC".to_string(),
                prompt: format!("Run {name}"),
                target: Some(target.to_string()),
                model: None,
                enabled: true,
                notify,
                next_run_at: None,
                skill: None,
            },
            0,
        )
        .unwrap();
    RunRequest {
        job,
        run_id: 0,
        scheduled_for: None,
        catch_up: false,
        manual: true,
        authorized_tools: None,
    }
}

/// An executor over the scripted server (Ollama wire) that notifies through `notifier`.
fn executor(
    store: &Arc<Store>,
    data: DataDir,
    notifier: Arc<dyn Notifier>,
    model: &ScriptedServer,
) -> AgentJobExecutor {
    let base_url = model.ollama_base();
    AgentJobExecutor::new(store.clone(), data, Arc::new(KeyringStore::new()), notifier)
        .with_settings(move || {
            Ok(Settings {
                providers: vec![ProviderEntry {
                    id: "local".to_string(),
                    name: "Local".to_string(),
                    kind: hearth_protocol::ProviderKind::Ollama,
                    base_url: base_url.clone(),
                    default_model: Some("qwen3".to_string()),
                }],
                ..Settings::default()
            })
        })
}

/// A fresh data dir (deleted with the returned guard) and its store.
fn data_dir() -> (tempfile::TempDir, DataDir, Arc<Store>) {
    let dir = tempfile::tempdir().unwrap();
    let data = DataDir::at(dir.path().to_path_buf());
    data.ensure().unwrap();
    let store = Arc::new(Store::open(&data.database()).unwrap());
    (dir, data, store)
}

fn session(store: &Store, id: &str) {
    store
        .create_session(&NewSession {
            id: id.to_string(),
            title: "Deliveries".to_string(),
            model: None,
            workspace: None,
            tool_profile: "coding".to_string(),
        })
        .unwrap();
}

/// Keeps what each clickable notification would do when clicked.
#[derive(Default)]
struct ClickRecorder {
    clicks: Mutex<Vec<(String, OnClick)>>,
}

impl Notifier for ClickRecorder {
    fn show(&self, _: &Notice) -> Result<String, NotifyError> {
        Err(NotifyError(
            "the executor must show job notices clickable".into(),
        ))
    }

    fn show_clickable(&self, notice: &Notice, on_click: OnClick) -> Result<String, NotifyError> {
        self.clicks
            .lock()
            .unwrap()
            .push((notice.title.clone(), on_click));
        Ok("1".into())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clicking_a_job_notice_opens_the_chat_it_delivered_to() {
    let model = ScriptedServer::start().await;
    let (_dir, data, store) = data_dir();
    session(&store, "desktop:digest");
    let recorder = Arc::new(ClickRecorder::default());
    let opened = Arc::new(Mutex::new(Vec::<Option<String>>::new()));
    let record = opened.clone();
    let executor = executor(&store, data, recorder.clone(), &model).with_click(move |chat| {
        let record = record.clone();
        Box::new(move || record.lock().unwrap().push(chat))
    });

    model.push(Reply::text("Digest ready."));
    executor
        .run(job(&store, "digest", "desktop:digest", true))
        .await
        .unwrap();
    model.push(Reply::text("Nowhere to go."));
    executor
        .run(job(&store, "lost", "desktop:gone", false))
        .await
        .unwrap_err();

    let clicks = std::mem::take(&mut *recorder.clicks.lock().unwrap());
    let titles: Vec<&str> = clicks.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(titles, ["Job \"digest\" finished", "Job \"lost\" failed"]);
    assert!(
        opened.lock().unwrap().is_empty(),
        "nothing runs before a click"
    );
    for (_, on_click) in clicks {
        on_click();
    }
    assert_eq!(
        *opened.lock().unwrap(),
        [
            Some("desktop:digest".to_string()),
            Some("desktop:gone".to_string())
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn job_runs_are_notified_per_the_job_and_failures_always() {
    let notifications = NotificationServer::start(500).await;
    let model = ScriptedServer::start().await;
    let (_dir, data, store) = data_dir();
    let target = "desktop:deliveries";
    session(&store, target);
    let executor = executor(&store, data, Arc::new(OsNotifier), &model);

    model.push(Reply::text("Inbox: 3 unread, none urgent."));
    let output = executor
        .run(job(&store, "inbox", target, true))
        .await
        .unwrap();
    assert!(output.text.contains("3 unread"));
    model.push(Reply::text("Quiet job done."));
    executor
        .run(job(&store, "quiet", target, false))
        .await
        .unwrap();
    model.push(Reply::text("Nowhere to go."));
    let failed = executor
        .run(job(&store, "lost", "desktop:gone", false))
        .await
        .unwrap_err();
    assert!(failed.text.contains("desktop:gone"), "{failed}");

    let calls = notifications.calls();
    let summaries: Vec<&str> = calls.iter().map(|c| c.summary.as_str()).collect();
    assert_eq!(
        summaries,
        ["Job \"inbox\" finished", "Job \"lost\" failed"],
        "the quiet job is not notified; the failure is"
    );
    assert_eq!(calls[0].app_name, "Hearth");
    assert!(calls[0].body.contains("3 unread"), "{}", calls[0].body);
    assert!(
        calls[1].body.contains("does not exist"),
        "{}",
        calls[1].body
    );

    let delivered: Vec<String> = store
        .list_messages(target)
        .unwrap()
        .iter()
        .map(|m| m.text())
        .collect();
    assert_eq!(delivered.len(), 2, "{delivered:?}");
    assert!(delivered[0].starts_with("**Scheduled job \"inbox\"**"));
    assert!(delivered[1].contains("Quiet job done."));
    assert_eq!(model.model_requests()[0].body["model"], "qwen3");
}

fn now_ms() -> i64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    i64::try_from(since.unwrap().as_millis()).unwrap()
}

/// Records the title of every notification it shows.
#[derive(Default)]
struct Shown(Mutex<Vec<String>>);

impl Notifier for Shown {
    fn show(&self, notice: &Notice) -> Result<String, NotifyError> {
        let mut shown = self.0.lock().unwrap();
        shown.push(notice.title.clone());
        Ok(shown.len().to_string())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn job_notices_count_toward_the_hourly_limit_and_failures_always_pass() {
    let model = ScriptedServer::start().await;
    let (_dir, data, store) = data_dir();
    session(&store, "desktop:digest");
    // Nine notifications (e.g. from `send_notification`) were shown in the last hour.
    let now = now_ms();
    for i in 0..NOTIFICATIONS_PER_HOUR - 1 {
        let NotificationReservation::Granted { id, .. } = store
            .reserve_notification(&format!("earlier {i}"), now - 60_000, 3_600_000, 10)
            .unwrap()
        else {
            panic!("room for {i}");
        };
        store
            .settle_notification(id, NotificationStatus::Delivered, Some("1"), None)
            .unwrap();
    }
    let shown = Arc::new(Shown::default());
    let executor = executor(&store, data, shown.clone(), &model);

    model.push(Reply::text("Tenth: shown."));
    let tenth = executor
        .run(job(&store, "tenth", "desktop:digest", true))
        .await
        .unwrap();
    assert!(!tenth.text.contains("No notification"), "{}", tenth.text);
    model.push(Reply::text("Eleventh: over the limit."));
    let eleventh = executor
        .run(job(&store, "eleventh", "desktop:digest", true))
        .await
        .expect("a notice over the limit never fails the run");
    assert!(
        eleventh.text.starts_with("Eleventh: over the limit.")
            && eleventh.text.contains(
                "No notification was shown: 10 were shown in the last hour, the most allowed."
            ),
        "the run's output (its history) says why: {}",
        eleventh.text
    );
    model.push(Reply::text("Nowhere to go."));
    executor
        .run(job(&store, "lost", "desktop:gone", false))
        .await
        .unwrap_err();

    assert_eq!(
        *shown.0.lock().unwrap(),
        ["Job \"tenth\" finished", "Job \"lost\" failed"],
        "the eleventh notice is skipped, the failure is shown over the limit"
    );
    let counted = store
        .reserve_notification("probe", now_ms(), 3_600_000, 10)
        .unwrap();
    assert!(
        matches!(counted, NotificationReservation::Limited { used: 11, .. }),
        "job notices count for `send_notification` too: {counted:?}"
    );
}
