//! A window left hidden in the tray is torn down: WebKit's web process exits, and (without
//! WebDriver) the app ends WebKit's network process too. Every way back builds the window again
//! on its chat and draft, with a new network process, loading the UI and answering IPC.

use std::time::Duration;

use hearth_tests::{Reply, ScriptedServer};

use crate::desktop::app::{App, PlainApp, TEARDOWN_ENV};
use crate::desktop::home::{eventually, Home, PATIENCE};
use crate::desktop::procs;
use crate::desktop::tray::TrayMenu;
use crate::desktop::ui;
use crate::desktop_e2e::setup;
use crate::desktop_e2e::tray::{close_window, notices, shown, turn_started, wait_window, FINISHED};

/// WebKitGTK's web content process (its command name, cut to 15 characters by the kernel).
const WEB_PROCESS: &str = "WebKitWebProcess";
/// WebKitGTK's network process.
const NETWORK_PROCESS: &str = "WebKitNetworkProcess";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_left_hidden_is_torn_down_and_the_tray_or_a_notification_rebuilds_it_on_its_chat()
{
    let (_turn, tools, fake) = setup().await;
    let server = ScriptedServer::start().await;
    let mut home = Home::new(&tools, "teardown", &server.openai_base());
    let app = App::launch(&tools, &mut home, &[(TEARDOWN_ENV, "3")]).await;
    let pid = app.pid;
    let tray = TrayMenu::find(pid, PATIENCE);
    let chat = ui::new_chat(&app).await;
    ui::rename(&app, &chat, "Half written").await;
    let draft = "Remind me to water the plants and";
    app.type_into(".composer textarea", draft).await;
    assert!(
        !procs::named_below(pid, WEB_PROCESS).is_empty(),
        "no {WEB_PROCESS} below the app with its window open"
    );
    let network = procs::named_below(pid, NETWORK_PROCESS);
    assert_eq!(network.len(), 1, "{network:?}");

    // Hidden past the delay, the window goes, and WebKit's web process with it.
    close_window(&tools, pid).await;
    wait_none_below(pid, &[WEB_PROCESS], "the web process to exit").await;
    assert!(procs::alive(pid), "tearing the window down ended the app");
    let log = std::fs::read_to_string(home.data().join("logs/hearth.log")).unwrap();
    assert!(log.contains("hidden window torn down"), "{log}");
    // WebKit would end the WebDriver session with its network process: under WebDriver it stays.
    eventually("the network process to be kept", PATIENCE, || async {
        let log = std::fs::read_to_string(home.data().join("logs/hearth.log")).unwrap();
        log.contains("network process kept for the WebDriver session")
            .then_some(())
    })
    .await;
    assert_eq!(procs::named_below(pid, NETWORK_PROCESS), network);

    // "Open Hearth" builds it again, on the same chat with the unsent text still in the box.
    tray.click("Open Hearth");
    wait_window(pid, true).await;
    app.follow_new_window().await;
    let open = eventually("the chat to reopen", PATIENCE, || async {
        ui::open_chat(&app).await.filter(|open| *open == chat)
    })
    .await;
    assert_eq!(open, chat);
    let value = app
        .js(
            "return document.querySelector('.composer textarea').value;",
            vec![],
        )
        .await;
    assert_eq!(value.as_str(), Some(draft));
    assert!(!procs::named_below(pid, WEB_PROCESS).is_empty());

    // Torn down again, "New chat" from the tray opens a new chat in the rebuilt window.
    close_window(&tools, pid).await;
    wait_none_below(pid, &[WEB_PROCESS], "the web process to exit again").await;
    tray.click("New chat");
    wait_window(pid, true).await;
    app.follow_new_window().await;
    ui::wait_chat_count(&app, 2).await;
    let second = ui::open_chat(&app).await.unwrap();
    assert_ne!(
        second, chat,
        "the first chat was renamed: it is not an unused New chat"
    );
    // Another New chat while that one is still empty goes back to it: no third row.
    app.click(&format!("{} .session-open", ui::session_item(&chat)))
        .await;
    eventually("the first chat to open", PATIENCE, || async {
        ui::open_chat(&app).await.filter(|open| *open == chat)
    })
    .await;
    app.click(".sidebar-top button.primary").await;
    eventually("the empty chat to be reused", PATIENCE, || async {
        ui::open_chat(&app).await.filter(|open| *open == second)
    })
    .await;
    assert_eq!(app.count("li.session").await, 2);
    assert_eq!(chats_stored(&home), 2);

    // A reply streaming while hidden keeps the window until it ends; then the window goes, and
    // clicking the reply's notification builds it again on that chat.
    ui::rename(&app, &second, "Seedlings").await;
    server.push(Reply::text("Sow them in March.").with_chunk_delay(300));
    ui::send(&app, "When do I sow tomatoes?").await;
    turn_started(&server).await;
    close_window(&tools, pid).await;
    let done = eventually("the notification about Seedlings", PATIENCE, || async {
        notices(fake, "Seedlings")
            .into_iter()
            .find(|n| n["body"] == FINISHED)
    })
    .await;
    wait_none_below(
        pid,
        &[WEB_PROCESS],
        "the web process to exit after the reply",
    )
    .await;
    let id = done["id"].as_u64().unwrap();
    eventually("the window to show after the click", PATIENCE, || async {
        fake.invoke(id, "default");
        tokio::time::sleep(Duration::from_millis(300)).await;
        shown(pid).then_some(())
    })
    .await;
    app.follow_new_window().await;
    let open = eventually("the notified chat to open", PATIENCE, || async {
        ui::open_chat(&app).await.filter(|open| *open == second)
    })
    .await;
    assert_eq!(open, second);
    tray.click("Quit");
    app.expect_exit(Duration::from_secs(15));
}

fn log_count(home: &Home, line: &str) -> usize {
    let log = std::fs::read_to_string(home.data().join("logs/hearth.log")).unwrap_or_default();
    log.matches(line).count()
}

fn chats_stored(home: &Home) -> i64 {
    let db = rusqlite::Connection::open(home.data().join("hearth.db")).unwrap();
    db.query_row("SELECT count(*) FROM sessions", [], |row| row.get(0))
        .unwrap()
}

/// The newest chat and when it was last active.
fn newest_chat(home: &Home) -> (String, i64) {
    let db = rusqlite::Connection::open(home.data().join("hearth.db")).unwrap();
    db.query_row(
        "SELECT id, updated_at FROM sessions ORDER BY created_at DESC, id LIMIT 1",
        [],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )
    .unwrap()
}

/// Stores a user message in chat `id` behind the app's back, as a sent message would be.
fn say_in(home: &Home, id: &str) {
    let db = rusqlite::Connection::open(home.data().join("hearth.db")).unwrap();
    db.execute(
        "INSERT INTO messages (session_id, role, kind, content, tool_calls, status, text, words, \
         created_at, updated_at) VALUES (?1, 'user', 'normal', '[{\"type\":\"text\",\"text\":\"hi\"}]', \
         '[]', 'complete', 'hi', 'hi', 1, 1)",
        [id],
    )
    .unwrap();
}

/// Waits until no process named one of `names` runs below the app.
async fn wait_none_below(pid: u32, names: &[&str], what: &str) {
    eventually(what, PATIENCE, || async {
        let running = names.iter().any(|n| !procs::named_below(pid, n).is_empty());
        (!running).then_some(())
    })
    .await;
}

/// Without WebDriver (as people run it), the teardown also ends WebKit's network process; the
/// window built again gets a new one, loads the UI (which reports ready over IPC) and carries out
/// the tray's "New chat" over IPC, twice over (the first chat holds a message by then, so the
/// second New chat is a chat of its own); a third, while that one is still empty, reuses it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_teardown_ends_webkits_network_process_and_a_rebuilt_window_still_works() {
    let (_turn, tools, _fake) = setup().await;
    let server = ScriptedServer::start().await;
    let mut home = Home::new(&tools, "teardown-plain", &server.openai_base());
    let mut app = PlainApp::start(&tools, &mut home, &[(TEARDOWN_ENV, "3")]);
    app.wait_ready(PATIENCE);
    let pid = app.pid();
    let tray = TrayMenu::find(pid, PATIENCE);
    let mut network = procs::named_below(pid, NETWORK_PROCESS);
    assert_eq!(network.len(), 1, "{network:?}");
    let chats = chats_stored(&home);

    for round in 1..=2 {
        close_window(&tools, pid).await;
        wait_none_below(
            pid,
            &[WEB_PROCESS, NETWORK_PROCESS],
            "WebKit's processes to exit",
        )
        .await;
        assert!(procs::alive(pid), "the teardown ended the app");
        eventually(
            "the app to log the network process ended",
            PATIENCE,
            || async { (log_count(&home, "network process ended") == round).then_some(()) },
        )
        .await;
        // Then the program files' pages are given up too; the window built next reads them back.
        eventually(
            "the app to log its program files' pages advised out",
            PATIENCE,
            || async {
                (log_count(&home, "pages advised out while hidden") == round).then_some(())
            },
        )
        .await;

        let ready = log_count(&home, "hearth_app::commands::settings: ready");
        tray.click("Open Hearth");
        if round == 2 {
            // A second click while the window is being built builds no second one.
            tray.click("Open Hearth");
        }
        wait_window(pid, true).await;
        eventually(
            "the rebuilt window's UI to report ready",
            PATIENCE,
            || async {
                (log_count(&home, "hearth_app::commands::settings: ready") > ready).then_some(())
            },
        )
        .await;
        let relaunched = procs::named_below(pid, NETWORK_PROCESS);
        assert_eq!(relaunched.len(), 1, "{relaunched:?}");
        assert_ne!(relaunched, network, "the old network process still runs");
        network = relaunched;
        assert_eq!(procs::named_below(pid, WEB_PROCESS).len(), 1);
        assert_eq!(log_count(&home, "main window built again"), round);
        assert_eq!(log_count(&home, "cannot build the main window again"), 0);

        tray.click("New chat");
        let want = chats + round as i64;
        eventually("the new chat to be stored", PATIENCE, || async {
            (chats_stored(&home) == want).then_some(())
        })
        .await;
        // Used, it is no longer a New chat to reuse.
        if round == 1 {
            say_in(&home, &newest_chat(&home).0);
        }
    }
    // The round-2 chat is still empty: New chat brings it back (touched) instead of a third.
    let (unused, touched) = newest_chat(&home);
    tray.click("New chat");
    eventually("the empty chat to be reused", PATIENCE, || async {
        (newest_chat(&home).1 > touched).then_some(())
    })
    .await;
    assert_eq!(newest_chat(&home).0, unused);
    assert_eq!(chats_stored(&home), chats + 2);
    tray.click("Quit");
    assert!(
        procs::wait_exit(pid, Duration::from_secs(15)),
        "Quit did not end the app"
    );
}
