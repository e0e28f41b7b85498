//! Closing the window on a desktop with no tray icon host (no StatusNotifierWatcher on the bus,
//! as on stock GNOME): the window asks once whether to keep running in the background or to
//! quit, remembers the answer, and then follows it without asking; launching Hearth again opens
//! the hidden window; start at login can be turned on from the question. With a host the window
//! hides to the tray as before (`tray.rs`).

use std::process::Command;
use std::time::Duration;

use hearth_tests::ScriptedServer;

use crate::desktop::app::{App, ENV_API_KEY};
use crate::desktop::bus;
use crate::desktop::home::{eventually, Home, PATIENCE};
use crate::desktop::tray_host::WATCHER;
use crate::desktop::{procs, x11};
use crate::desktop_e2e::setup_without_tray;
use crate::desktop_e2e::tray::{close_window, notices, shown, wait_window};

const ASKED: &str = "[data-close-ask=\"shown\"]";

/// Asks the window to close as a window manager would (without waiting for it to hide).
fn request_close(tools: &crate::desktop::env::Tools, pid: u32) {
    let windows = x11::windows(pid, "Hearth", true);
    assert_eq!(windows.len(), 1, "one visible Hearth window: {windows:?}");
    x11::request_close(tools, &windows[0]);
}

fn config(home: &Home) -> String {
    std::fs::read_to_string(home.data().join("config.toml")).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_tray_host_closing_asks_and_keeping_it_running_is_remembered() {
    let (_turn, tools, fake) = setup_without_tray().await;
    assert!(
        !bus::has_owner(WATCHER),
        "a tray icon host runs on this bus"
    );
    let server = ScriptedServer::start().await;
    let mut home = Home::new(&tools, "no-tray-background", &server.openai_base());
    // Start at login writes into the home folder: a home of its own.
    let user_home = home.dir.join("user");
    std::fs::create_dir_all(&user_home).unwrap();
    let user_home = user_home.to_string_lossy().into_owned();
    let app = App::launch(&tools, &mut home, &[("HOME", user_home.as_str())]).await;
    let pid = app.pid;

    // The close asks, and the window stays.
    request_close(&tools, pid);
    let question = app.wait_css(ASKED).await;
    let text = question.text().await.unwrap();
    assert!(
        text.contains("launching Hearth again opens this window"),
        "{text}"
    );
    assert!(shown(pid), "the window hid before the answer");
    assert!(!config(&home).contains("close_without_tray = \"background\""));

    // Keep running, and start at login: the window hides, the process stays, both are kept.
    let earlier = notices(fake, "Hearth is still running").len();
    app.click("input[name=\"close_ask_autostart\"]").await;
    app.click("button[name=\"close_ask_background\"]").await;
    wait_window(pid, false).await;
    assert!(procs::alive(pid), "keeping it running ended the app");
    let saved = config(&home);
    assert!(
        saved.contains("close_without_tray = \"background\"")
            && saved.contains("start_at_login = true"),
        "{saved}"
    );
    let autostart = std::path::Path::new(&user_home).join(".config/autostart");
    let entries = eventually("the autostart entry", PATIENCE, || async {
        let entries: Vec<_> = std::fs::read_dir(&autostart).ok()?.flatten().collect();
        (!entries.is_empty()).then_some(entries)
    })
    .await;
    let entry = std::fs::read_to_string(entries[0].path()).unwrap();
    assert!(
        entry.contains(&tools.app.to_string_lossy().to_string()),
        "{entry}"
    );
    // The first hide's notice says how to get the window back without a tray.
    let notice = eventually("the still-running notice", PATIENCE, || async {
        notices(fake, "Hearth is still running")
            .into_iter()
            .nth(earlier)
    })
    .await;
    let body = notice["body"].as_str().unwrap();
    assert!(body.contains("Launch Hearth again"), "{body}");
    assert!(!body.contains("tray"), "{body}");

    // Launching Hearth again opens the hidden window (the second launch hands over and exits).
    let status = Command::new(&tools.app)
        .env("HEARTH_HOME", home.data())
        .env("HEARTH_API_KEY", ENV_API_KEY)
        .env("HOME", &user_home)
        .status()
        .unwrap();
    assert!(status.success(), "the second launch failed: {status}");
    wait_window(pid, true).await;

    // The answer is remembered: the next close hides at once, without asking.
    close_window(&tools, pid).await;
    assert_eq!(app.count(ASKED).await, 0, "asked again");
    assert!(procs::alive(pid));
    app.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_tray_host_choosing_quit_quits_now_and_on_later_closes() {
    let (_turn, tools, _fake) = setup_without_tray().await;
    let server = ScriptedServer::start().await;
    let mut home = Home::new(&tools, "no-tray-quit", &server.openai_base());
    let app = App::launch(&tools, &mut home, &[]).await;

    // Cancel leaves the window open and remembers nothing.
    request_close(&tools, app.pid);
    app.click("button[name=\"close_ask_cancel\"]").await;
    assert_eq!(app.count(ASKED).await, 0);
    assert!(shown(app.pid));
    assert!(!config(&home).contains("close_without_tray = \"quit\""));

    request_close(&tools, app.pid);
    app.click_to_quit("button[name=\"close_ask_quit\"]", Duration::from_secs(15))
        .await;
    let saved = config(&home);
    assert!(saved.contains("close_without_tray = \"quit\""), "{saved}");

    // Started again, closing quits at once.
    let app = App::launch(&tools, &mut home, &[]).await;
    request_close(&tools, app.pid);
    app.expect_exit(Duration::from_secs(15));
}
