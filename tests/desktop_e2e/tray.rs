//! The tray and OS notifications in the real app: closing hides the window to the tray with a
//! notice, a turn finished while hidden is announced, the tray menu reopens, starts a chat and
//! quits, and clicking a turn's notification brings the window back on that chat; in Chinese,
//! the tray menu and the notifications are Chinese. The helpers here serve the teardown tests
//! too.

use std::time::Duration;

use hearth_tests::{Reply, ScriptedServer};
use serde_json::Value;

use crate::desktop::app::App;
use crate::desktop::home::{eventually, Home, PATIENCE};
use crate::desktop::notifications::FakeNotifications;
use crate::desktop::tray::TrayMenu;
use crate::desktop::ui::{self, REPLY};
use crate::desktop::{procs, x11};
use crate::desktop_e2e::setup;

pub(crate) const FINISHED: &str = "Hearth finished replying.";
const STILL_RUNNING: &str = "Hearth is still running";

pub(crate) fn notices(fake: &FakeNotifications, summary: &str) -> Vec<Value> {
    let all = fake.records().into_iter();
    all.filter(|n| n["summary"] == summary).collect()
}

pub(crate) fn shown(pid: u32) -> bool {
    !x11::windows(pid, "Hearth", true).is_empty()
}

pub(crate) async fn wait_window(pid: u32, visible: bool) {
    let what = if visible {
        "the window to show"
    } else {
        "the window to hide"
    };
    eventually(what, PATIENCE, || async {
        (shown(pid) == visible).then_some(())
    })
    .await;
}

/// Closes the main window as a window manager would and waits until it is hidden.
pub(crate) async fn close_window(tools: &crate::desktop::env::Tools, pid: u32) {
    let windows = x11::windows(pid, "Hearth", true);
    assert_eq!(windows.len(), 1, "one visible Hearth window: {windows:?}");
    x11::request_close(tools, &windows[0]);
    wait_window(pid, false).await;
}

pub(crate) async fn turn_started(server: &ScriptedServer) {
    eventually("the turn to start", PATIENCE, || async {
        (!server.model_requests().is_empty()).then_some(())
    })
    .await;
}

/// Launches the app of `home` and finds its tray menu, with the menu's labels.
async fn launch_with_tray(
    tools: &crate::desktop::env::Tools,
    home: &mut Home,
) -> (App, TrayMenu, Vec<String>) {
    let app = App::launch(tools, home, &[]).await;
    let tray = TrayMenu::find(app.pid, PATIENCE);
    let labels = tray.items().into_iter().map(|(_, l)| l).collect();
    (app, tray, labels)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_hides_to_the_tray_notifies_and_the_tray_reopens_and_quits() {
    let (_turn, tools, fake) = setup().await;
    let server = ScriptedServer::start().await;
    let slow = "Here is the slow answer you asked for.";
    server.push(Reply::text(slow).with_chunk_delay(250));
    let mut home = Home::new(&tools, "tray", &server.openai_base());
    let (app, tray, labels) = launch_with_tray(&tools, &mut home).await;
    let pid = app.pid;
    assert_eq!(
        labels,
        [
            "Open Hearth",
            "New chat",
            "No scheduled jobs",
            "Pause all jobs",
            "Quit"
        ]
    );

    ui::new_chat(&app).await;
    ui::send(&app, "Take your time.").await;
    turn_started(&server).await;

    // Close the window mid-turn: it hides, the process stays, and the first close says so.
    // (The fake serves the whole suite: other tests' apps have closed their windows too.)
    let earlier = notices(fake, STILL_RUNNING).len();
    close_window(&tools, pid).await;
    assert!(procs::alive(pid), "closing the window ended the app");
    let still = eventually("the close-to-tray notice", PATIENCE, || async {
        notices(fake, STILL_RUNNING).into_iter().nth(earlier)
    })
    .await;
    assert_eq!(still["app_name"], "Hearth");
    assert!(still["body"].as_str().unwrap().contains("tray"), "{still}");

    // The turn finishes while nobody watches: a notification titled after the chat (named by
    // its first message) says so.
    let done = eventually("the turn-finished notification", PATIENCE, || async {
        let mut all = notices(fake, "Take your time.").into_iter();
        all.find(|n| n["body"] == FINISHED)
    })
    .await;
    assert_eq!(done["app_name"], "Hearth", "{done}");

    // "Open Hearth" brings the window back, with the finished reply in it.
    tray.click("Open Hearth");
    wait_window(pid, true).await;
    let answer = app.text_of(&format!("{REPLY} .markdown")).await;
    assert_eq!(answer.as_deref().map(str::trim), Some(slow));

    // "New chat" opens a second chat.
    tray.click("New chat");
    ui::wait_chat_count(&app, 2).await;

    // Closing again hides without a second notice; "Quit" ends the process.
    close_window(&tools, pid).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let shown = notices(fake, STILL_RUNNING).len() - earlier;
    assert_eq!(shown, 1, "the tray notice shows once");
    tray.click("Quit");
    app.expect_exit(Duration::from_secs(15));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_chinese_the_tray_menu_and_the_notifications_are_chinese() {
    let (_turn, tools, fake) = setup().await;
    let server = ScriptedServer::start().await;
    server.push(Reply::text("好的，这就是答案。").with_chunk_delay(250));
    let mut home = Home::new(&tools, "tray-zh", &server.openai_base());
    home.set_language("zh-CN");
    let (app, tray, labels) = launch_with_tray(&tools, &mut home).await;
    let pid = app.pid;
    assert_eq!(
        labels,
        [
            "打开 Hearth",
            "新对话",
            "没有计划任务",
            "暂停所有任务",
            "退出"
        ]
    );

    ui::new_chat(&app).await;
    ui::send(&app, "慢慢来").await;
    turn_started(&server).await;
    let earlier = notices(fake, "Hearth 仍在运行").len();
    close_window(&tools, pid).await;
    let still = eventually("the close-to-tray notice in Chinese", PATIENCE, || async {
        notices(fake, "Hearth 仍在运行").into_iter().nth(earlier)
    })
    .await;
    assert!(still["body"].as_str().unwrap().contains("托盘"), "{still}");
    // The chat is titled by its first message; the reply's notice is Chinese too.
    let done = eventually(
        "the turn-finished notification in Chinese",
        PATIENCE,
        || async { notices(fake, "慢慢来").into_iter().next() },
    )
    .await;
    assert_eq!(done["body"], "Hearth 已完成回复。", "{done}");
    tray.click("退出");
    app.expect_exit(Duration::from_secs(15));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clicking_a_finished_turns_notification_shows_the_window_on_that_chat() {
    let (_turn, tools, fake) = setup().await;
    let server = ScriptedServer::start().await;
    let answer = "All three files are converted.";
    server.push(Reply::text(answer).with_chunk_delay(200));
    let mut home = Home::new(&tools, "notification-click", &server.openai_base());
    let app = App::launch(&tools, &mut home, &[]).await;
    let pid = app.pid;
    let chat = ui::new_chat(&app).await;
    ui::rename(&app, &chat, "Conversions").await;
    ui::send(&app, "Convert the three files, please.").await;
    turn_started(&server).await;

    // Another chat is on screen when the window goes to the tray.
    let other = ui::new_chat(&app).await;
    assert_ne!(other, chat);
    close_window(&tools, pid).await;
    let done = eventually("the notification about Conversions", PATIENCE, || async {
        let mut all = notices(fake, "Conversions").into_iter();
        all.find(|n| n["body"] == FINISHED)
    })
    .await;
    let actions = done["actions"].as_array().unwrap();
    assert_eq!(actions[0], "default", "not clickable: {done}");
    let id = done["id"].as_u64().unwrap();

    // A click on a notification that is not Hearth's leaves the window hidden.
    tokio::time::sleep(Duration::from_secs(1)).await;
    fake.invoke(id + 1000, "default");
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(!shown(pid), "another notification's click showed Hearth");

    // Clicking Hearth's brings the window back on that chat. The click is repeated until the
    // window shows: the app subscribes to clicks only once the server has accepted it.
    eventually("the window to show after the click", PATIENCE, || async {
        fake.invoke(id, "default");
        tokio::time::sleep(Duration::from_millis(300)).await;
        shown(pid).then_some(())
    })
    .await;
    let open = eventually("the clicked chat to open", PATIENCE, || async {
        ui::open_chat(&app).await.filter(|open| *open == chat)
    })
    .await;
    assert_eq!(open, chat);
    let reply = app.text_of(&format!("{REPLY} .markdown")).await;
    assert_eq!(reply.as_deref().map(str::trim), Some(answer));
    let log = std::fs::read_to_string(home.data().join("logs/hearth.log")).unwrap();
    assert!(log.contains("notification clicked"), "{log}");
    app.close().await;
}
