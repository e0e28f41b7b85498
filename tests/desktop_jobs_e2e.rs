//! Scheduled jobs end to end in the real Hearth app (tauri-driver + WebKitWebDriver, Xvfb, a
//! D-Bus session) against the scripted model server: a job created on the Jobs page, or by the
//! model in a chat after its approval card, fires on time while the window is hidden in the
//! tray, its answer lands in the target chat (seen after reopening the window) and a
//! notification reaches a fake `org.freedesktop.Notifications` server; the tray shows the next run and "Pause all jobs" holds runs back until resumed, when
//! the missed run happens once.
//!
//! Run: `bash scripts/with-headless-session.sh cargo test -p hearth-tests --test app_e2e
//! desktop_jobs_e2e` (after `bash scripts/e2e-setup.sh` and `cargo build --workspace --bins`).
//! The tests take turns: the app is single-instance per session bus.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::desktop::app::App;
use crate::desktop::env::Tools;
use crate::desktop::home::{eventually, Home, PATIENCE};
use crate::desktop::notifications::FakeNotifications;
use crate::desktop::tray::TrayMenu;
use crate::desktop::turn::{self, Turn};
use crate::desktop::ui::{self, REPLY};
use crate::desktop::x11;
use hearth_tests::{Reply, ScriptedServer};
use serde_json::{json, Value};
/// This test's turn, on a desktop that shows tray icons (the window hides to the tray).
async fn setup() -> (Turn, Tools, &'static FakeNotifications) {
    turn::take(true).await
}

/// How far ahead a job is scheduled: time to fill the form and hide the window first.
const LEAD: Duration = Duration::from_secs(40);
/// How long after its time a run may take to show (a loaded 2-core machine, a model turn).
const FIRE_PATIENCE: Duration = Duration::from_secs(120);

fn unix_ms_in(lead: Duration) -> u128 {
    (SystemTime::now() + lead)
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis()
}

/// Fills the Jobs page's form for a one-shot job at `at_ms` delivering to `session`, and saves.
async fn create_job(app: &App, name: &str, prompt: &str, at_ms: u128, session: &str) {
    app.click("nav.sidebar-pages button:first-child").await;
    app.click(".jobs-page .settings-header button.primary")
        .await;
    app.type_into("input[name=\"job_name\"]", name).await;
    let schedule = json!({"type": "at", "at": at_ms}).to_string();
    app.type_into("input[name=\"job_schedule\"]", &schedule)
        .await;
    // The live preview shows the one run before the job is saved.
    let first = eventually("the schedule preview", PATIENCE, || async {
        app.text_of(".preview-runs li").await
    })
    .await;
    assert!(first.contains("(UTC"), "preview: {first}");
    app.type_into("textarea[name=\"job_prompt\"]", prompt).await;
    let choose = "const s = document.querySelector('select[name=\"job_target\"]'); \
                  s.value = arguments[0]; s.dispatchEvent(new Event('change', {bubbles: true})); \
                  return s.value;";
    let chosen = app.js(choose, vec![json!(session)]).await;
    assert_eq!(chosen.as_str(), Some(session));
    app.click(".job-editor button[type=\"submit\"]").await;
    app.wait_css("li.job[data-enabled=\"true\"] .job-name")
        .await;
}

/// One row of the app's database, or `None` while it cannot be read (the app holds it).
fn query_app_db(home: &Home, sql: &str) -> Option<Option<i64>> {
    let db = home.data().join("hearth.db");
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    let conn = rusqlite::Connection::open_with_flags(db, flags).ok()?;
    conn.query_row(sql, [], |row| row.get(0)).ok()
}

/// How many job runs the app has recorded (a run is recorded as it starts).
fn recorded_runs(home: &Home) -> i64 {
    query_app_db(home, "SELECT COUNT(*) FROM job_runs")
        .flatten()
        .unwrap_or(-1)
}

/// The idle signal that stands in for a fixed "nothing else happened" wait: waits until the
/// app's scheduler has beaten its heartbeat at or after `at_ms` (unix ms). The runner beats at
/// the start of each turn of its loop and starts (or, paused, holds back) everything due then,
/// so what a turn at that time does has been recorded.
async fn wait_runner_turn(home: &Home, at_ms: i64) {
    eventually("the scheduler's next turn", FIRE_PATIENCE, || async {
        let beat = query_app_db(home, "SELECT beat_at FROM scheduler_lease WHERE id = 1")??;
        (beat >= at_ms).then_some(())
    })
    .await;
}

fn tray_labels(tray: &TrayMenu) -> Vec<String> {
    tray.items().into_iter().map(|(_, label)| label).collect()
}

async fn wait_tray_line(tray: &TrayMenu, what: &str, matches: impl Fn(&str) -> bool) -> String {
    eventually(what, PATIENCE, || async {
        tray_labels(tray).into_iter().find(|l| matches(l))
    })
    .await
}

async fn wait_window(pid: u32, visible: bool) {
    eventually("the window to change visibility", PATIENCE, || async {
        let shown = !x11::windows(pid, "Hearth", true).is_empty();
        (shown == visible).then_some(())
    })
    .await;
}

fn hide(tools: &Tools, pid: u32) {
    let windows = x11::windows(pid, "Hearth", true);
    assert_eq!(windows.len(), 1, "one visible Hearth window: {windows:?}");
    x11::request_close(tools, &windows[0]);
}

fn job_notices(fake: &FakeNotifications, name: &str) -> Vec<Value> {
    let title = format!("Job \"{name}\" finished");
    let all = fake.records().into_iter();
    all.filter(|n| n["summary"] == title.as_str()).collect()
}

const NAME: &str = "Evening digest";
const PROMPT: &str = "Write the evening digest: one line about the weather.";
const ANSWER: &str = "Digest: clear skies, 18 degrees, light wind.";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_fires_with_the_window_closed_delivers_into_its_chat_and_notifies() {
    let (_turn, tools, fake) = setup().await;
    let server = ScriptedServer::start().await;
    server.push(Reply::text(ANSWER));
    let mut home = Home::new(&tools, "jobs-fire", &server.openai_base());
    let app = App::launch(&tools, &mut home, &[]).await;
    let pid = app.pid;
    let tray = TrayMenu::find(pid, PATIENCE);
    assert!(tray_labels(&tray).contains(&"No scheduled jobs".to_string()));
    assert!(tray_labels(&tray).contains(&"Pause all jobs".to_string()));

    let session = ui::new_chat(&app).await;
    ui::rename(&app, &session, "Digest inbox").await;
    create_job(&app, NAME, PROMPT, unix_ms_in(LEAD), &session).await;
    let next = wait_tray_line(&tray, "the tray's next run", |l| l.starts_with("Next: ")).await;
    assert!(next.starts_with(&format!("Next: {NAME} — ")), "{next}");

    // Hidden in the tray: the job still fires, is answered by the model and notifies.
    app.click(&format!("{} .session-open", ui::session_item(&session)))
        .await;
    hide(&tools, pid);
    wait_window(pid, false).await;
    let notice = eventually("the job's notification", FIRE_PATIENCE, || async {
        job_notices(fake, NAME).into_iter().next()
    })
    .await;
    assert_eq!(notice["app_name"], "Hearth");
    assert!(
        notice["body"].as_str().unwrap().contains(ANSWER),
        "{notice}"
    );
    assert!(
        x11::windows(pid, "Hearth", true).is_empty(),
        "the run showed the window"
    );
    let requests = server.model_requests();
    assert_eq!(requests.len(), 1, "one model call for one run");
    assert!(requests[0].body.to_string().contains("the evening digest"));
    // A one-shot job has nothing left to run.
    wait_tray_line(&tray, "the tray's empty next run", |l| {
        l == "No scheduled jobs"
    })
    .await;

    // Reopened: the answer is in the target chat, labelled with the job.
    tray.click("Open Hearth");
    wait_window(pid, true).await;
    let delivered = eventually("the delivered answer", PATIENCE, || async {
        app.text_of(&format!("{REPLY} .markdown"))
            .await
            .filter(|t| t.contains(ANSWER))
    })
    .await;
    assert!(delivered.contains(NAME), "unlabelled: {delivered}");
    assert_eq!(job_notices(fake, NAME).len(), 1, "notified once");

    // The Jobs page shows the run in the history with its output.
    app.click("nav.sidebar-pages button:first-child").await;
    app.click("li.job button[aria-expanded]").await;
    let run = eventually("the run in the history", PATIENCE, || async {
        app.text_of("li.run[data-status=\"ok\"] .run-output").await
    })
    .await;
    assert!(run.contains(ANSWER), "{run}");
    app.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_the_model_creates_in_a_chat_fires_hidden_and_delivers_into_that_chat() {
    let (_turn, tools, fake) = setup().await;
    let server = ScriptedServer::start().await;
    let name = "Stretch reminder";
    let at = json!({"type": "at", "at": unix_ms_in(LEAD)}).to_string();
    server.push(Reply::tool_call(
        "cronjob",
        json!({"action": "create", "name": name, "schedule": at, "command": "Remind me to stretch."}),
    ));
    server.push(Reply::text("Scheduled: I will remind you."));
    server.push(Reply::text("Time to stretch: stand up for two minutes."));
    let mut home = Home::new(&tools, "jobs-chat", &server.openai_base());
    let app = App::launch(&tools, &mut home, &[]).await;
    let pid = app.pid;
    let tray = TrayMenu::find(pid, PATIENCE);
    ui::new_chat(&app).await;
    ui::send(&app, "Remind me to stretch in a bit.").await;
    // cronjob is high-risk: the card asks before the job is created.
    let card = ".tool-card[data-tool=\"cronjob\"]";
    let args = format!("{card} .approval.pending .approval-args");
    let shown = eventually("the approval card", PATIENCE, || app.text_of(&args)).await;
    assert!(shown.contains(name), "{shown}");
    app.click(&format!("{card} .approval-buttons button.primary"))
        .await;
    eventually("the model's confirmation", PATIENCE, || async {
        app.text_of(&format!("{REPLY} .markdown"))
            .await
            .filter(|t| t.contains("I will remind you"))
    })
    .await;
    let next = wait_tray_line(&tray, "the tray's next run", |l| l.starts_with("Next: ")).await;
    assert!(next.starts_with(&format!("Next: {name} — ")), "{next}");

    hide(&tools, pid);
    wait_window(pid, false).await;
    let notice = eventually("the job's notification", FIRE_PATIENCE, || async {
        job_notices(fake, name).into_iter().next()
    })
    .await;
    assert!(
        notice["body"].as_str().unwrap().contains("stand up"),
        "{notice}"
    );
    assert_eq!(server.model_requests().len(), 3, "two chat calls, one run");

    tray.click("Open Hearth");
    wait_window(pid, true).await;
    // The last reply of the chat the job was made in is the run's answer.
    let last = "const all = document.querySelectorAll(arguments[0]); \
                return all.length ? all[all.length - 1].innerText : null;";
    let delivered = eventually("the answer in the chat", PATIENCE, || async {
        let text = app
            .js(last, vec![json!(format!("{REPLY} .markdown"))])
            .await;
        text.as_str()
            .filter(|t| t.contains("stand up"))
            .map(str::to_string)
    })
    .await;
    assert!(
        delivered.contains(name),
        "labelled with the job: {delivered}"
    );
    app.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pausing_all_jobs_holds_a_run_back_until_resumed_then_it_runs_once() {
    let (_turn, tools, fake) = setup().await;
    let server = ScriptedServer::start().await;
    server.push(Reply::text("Held back, then run once."));
    let mut home = Home::new(&tools, "jobs-pause", &server.openai_base());
    let app = App::launch(&tools, &mut home, &[]).await;
    let tray = TrayMenu::find(app.pid, PATIENCE);
    let session = ui::new_chat(&app).await;
    let name = "Paused reminder";
    let due = unix_ms_in(LEAD);
    create_job(&app, name, "Remind me to stretch.", due, &session).await;

    tray.click("Pause all jobs");
    let config = home.data().join("config.toml");
    eventually("the paused state in the settings", PATIENCE, || async {
        let text = std::fs::read_to_string(&config).unwrap_or_default();
        text.contains("jobs_paused = true").then_some(())
    })
    .await;
    // The scheduler's turn at the job's time has held it back: nothing has run.
    wait_runner_turn(&home, i64::try_from(due).unwrap()).await;
    assert_eq!(recorded_runs(&home), 0, "a paused job ran");
    assert!(server.model_requests().is_empty(), "a paused job ran");
    assert!(job_notices(fake, name).is_empty());

    tray.click("Pause all jobs");
    let notice = eventually("the catch-up run", FIRE_PATIENCE, || async {
        job_notices(fake, name).into_iter().next()
    })
    .await;
    assert!(notice["body"].as_str().unwrap().contains("run once"));
    // The scheduler's turn after the run ended started no other.
    let finished = eventually("the run's end", PATIENCE, || async {
        query_app_db(&home, "SELECT MAX(finished_at) FROM job_runs").flatten()
    })
    .await;
    wait_runner_turn(&home, finished).await;
    assert_eq!(recorded_runs(&home), 1, "resuming ran it more than once");
    assert_eq!(
        server.model_requests().len(),
        1,
        "resuming ran it more than once"
    );
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(text.contains("jobs_paused = false"), "{text}");
    app.close().await;
}
