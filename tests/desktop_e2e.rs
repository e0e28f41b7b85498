//! End to end in the real Hearth app (tauri-driver + WebKitWebDriver, Xvfb, a D-Bus session with
//! gnome-keyring) against the scripted model server: a streamed markdown reply with a tool card,
//! persistence across a restart, a file and a PDF dragged onto the window, a screenshot pasted
//! with Ctrl+V, hiding to the tray with notifications, the tray menu over D-Bus, the hidden window's teardown (WebKit's processes
//! ended, the window built again), API keys kept in the keychain only, a relaunch while the
//! previous instance is still quitting, the start-up error screen (a newer database, a denied
//! data dir, a misspelled setting), and — ignored unless asked for, as it installs into the
//! system — the `.deb` installed, started from its menu entry, quit from the tray and removed;
//! a skill installed on the Skills page and used with `/` in a chat; closing on a desktop with
//! no tray icon host (the question, its remembered answer); a keychain that answers "no result
//! found" showing no errors to someone who never typed a key; the built-in model chatting offline
//! from the first-run card, and a model downloaded in Settings → Models from a 127.0.0.1 server.
//!
//! Run: `bash scripts/with-headless-session.sh cargo test -p hearth-tests --test app_e2e desktop_e2e`
//! (after `bash scripts/e2e-setup.sh` and `cargo build --workspace --bins`). The tests take turns:
//! the app is single-instance per session bus. `HEARTH_SCREENSHOT=1` also saves
//! `docs/screenshot.png` and `docs/skills.png`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "desktop_e2e/background.rs"]
mod background;
#[path = "desktop_e2e/install.rs"]
mod install;
#[path = "desktop_e2e/keychain.rs"]
mod keychain;
#[path = "desktop_e2e/local_model.rs"]
mod local_model;
#[path = "desktop_e2e/skills.rs"]
mod skills;
#[path = "desktop_e2e/startup.rs"]
mod startup;
#[path = "desktop_e2e/teardown.rs"]
mod teardown;
#[path = "desktop_e2e/tray.rs"]
mod tray;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::desktop::app::{App, PlainApp};
use crate::desktop::env::{Tools, PYTHON};
use crate::desktop::home::{eventually, files_containing, Home, PATIENCE};
use crate::desktop::notifications::FakeNotifications;
use crate::desktop::turn::{self, Turn};
use crate::desktop::ui::{self, REPLY};
use crate::desktop::{bus, procs, x11};
use hearth_tests::{Reply, ScriptedServer};
use serde_json::json;
/// Waits for this test's turn, checks the preconditions, starts the fake notification server
/// and a tray icon host (the desktop shows tray icons).
async fn setup() -> (Turn, Tools, &'static FakeNotifications) {
    setup_desktop(true).await
}

/// [`setup`] on a desktop with no tray icon host (stock GNOME, many Wayland sessions).
async fn setup_without_tray() -> (Turn, Tools, &'static FakeNotifications) {
    setup_desktop(false).await
}

async fn setup_desktop(tray: bool) -> (Turn, Tools, &'static FakeNotifications) {
    turn::take(tray).await
}

/// The request bodies the scripted model received, as JSON text.
fn model_bodies(server: &ScriptedServer) -> Vec<String> {
    let requests = server.model_requests();
    requests.iter().map(|r| r.body.to_string()).collect()
}

const TITLE: &str = "Times table";
const QUESTION: &str = "What is 6 times 7? Answer with a table.";
const ANSWER: &str = "**The answer is 42.**\n\n| expression | result |\n| --- | --- |\n\
                      | 6 × 7 | 42 |\n\n- checked with the calculator\n- exact integer arithmetic\n";
const CARD: &str = ".tool-card[data-tool=\"calculator\"]";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_markdown_reply_with_a_tool_card_survives_a_restart() {
    let (_turn, tools, _fake) = setup().await;
    let server = ScriptedServer::start().await;
    let call = json!({"action": "evaluate", "expression": "6*7"});
    server.push(Reply::tool_call("calculator", call));
    server.push(Reply::text(ANSWER).with_chunk_delay(60));
    let mut home = Home::new(&tools, "chat", &server.openai_base());
    let app = App::launch(&tools, &mut home, &[]).await;
    let session = ui::new_chat(&app).await;
    ui::rename(&app, &session, TITLE).await;
    ui::send(&app, QUESTION).await;

    // The reply is rendered while it streams, before it is complete.
    let streaming = "article.message.assistant[data-status=\"streaming\"] .markdown";
    let partial = eventually("a partly streamed reply", PATIENCE, || async {
        let text = app.text_of(streaming).await;
        text.filter(|t| !t.trim().is_empty())
    })
    .await;
    assert!(
        partial.len() < ANSWER.len(),
        "saw the whole reply at once: {partial:?}"
    );

    app.wait_css(&format!("{REPLY} .markdown table")).await;
    let table = app
        .text_of(&format!("{REPLY} .markdown table"))
        .await
        .unwrap();
    assert!(
        table.contains("expression") && table.contains("42"),
        "table: {table:?}"
    );
    let strong = app.text_of(&format!("{REPLY} .markdown strong")).await;
    assert_eq!(strong.as_deref(), Some("The answer is 42."));
    assert_eq!(app.count(&format!("{REPLY} .markdown li")).await, 2);

    // The calculator's card: finished, and its result once expanded.
    app.wait_css(&format!("{CARD}[data-status=\"ok\"]")).await;
    // The README's screenshot: the question, the finished card and the rendered answer.
    if std::env::var("HEARTH_SCREENSHOT").is_ok_and(|v| v == "1") {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let png = app.client.screenshot().await.unwrap();
        let path = tools.root.join("docs/screenshot.png");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, png).unwrap();
    }
    app.click(&format!("{CARD} .tool-head")).await;
    let card_body = format!("{CARD} .tool-body");
    let body = eventually("the expanded tool card", PATIENCE, || {
        app.text_of(&card_body)
    })
    .await;
    assert!(
        body.contains("6*7") && body.contains("\"result\": 42"),
        "tool card: {body}"
    );

    // The model saw the tool's result in its second request.
    let bodies = model_bodies(&server);
    assert_eq!(
        bodies.len(),
        2,
        "two model calls: the tool call and the answer"
    );
    let result = ["\\\"result\\\":42", "\\\"result\\\": 42"];
    assert!(
        result.iter().any(|r| bodies[1].contains(r)),
        "{}",
        bodies[1]
    );
    app.close().await;

    // Relaunched on the same data: the chat is listed and its messages, card included, show.
    let app = App::launch(&tools, &mut home, &[]).await;
    ui::wait_title(&app, &session, TITLE).await;
    app.click(&format!("{} .session-open", ui::session_item(&session)))
        .await;
    app.wait_css(&format!("{REPLY} .markdown table")).await;
    let question = app.text_of("article.message.user .user-text").await;
    assert_eq!(question.as_deref(), Some(QUESTION));
    app.wait_css(&format!("{CARD}[data-status=\"ok\"]")).await;
    assert_eq!(
        server.model_requests().len(),
        2,
        "reopening a chat calls no model"
    );
    app.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_dragged_onto_the_window_reaches_the_model() {
    let (_turn, tools, _fake) = setup().await;
    let server = ScriptedServer::start().await;
    server.push(Reply::text("Noted: the word is marmalade."));
    let mut home = Home::new(&tools, "drop", &server.openai_base());
    let notes = home.dir.join("field-notes.md");
    std::fs::write(
        &notes,
        "# Field notes\n\nThe secret word is marmalade-7781.\n",
    )
    .unwrap();
    let app = App::launch(&tools, &mut home, &[]).await;
    ui::new_chat(&app).await;

    // Drag from a GTK window at the screen's right edge to the middle of Hearth's window.
    let mut source = x11::DragSource::start(&tools, &notes, 1150, 650);
    source.drag_to(420, 480);
    let chip = ".composer .chip .chip-label";
    let label = eventually("the dropped file's chip", PATIENCE, || app.text_of(chip)).await;
    assert_eq!(label, "field-notes.md");

    let question = "What is the secret word in my notes?";
    ui::send(&app, question).await;
    app.wait_css(&format!("{REPLY} .markdown")).await;
    let bodies = model_bodies(&server);
    assert_eq!(bodies.len(), 1);
    assert!(
        bodies[0].contains("marmalade-7781"),
        "no file text in {}",
        bodies[0]
    );
    assert!(bodies[0].contains(question));
    // The sent message keeps the attachment's chip.
    let sent = app.text_of("article.message.user .chip-label").await;
    assert_eq!(sent.as_deref(), Some("field-notes.md"));
    app.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_v_of_a_screenshot_on_the_clipboard_attaches_it() {
    let (_turn, tools, _fake) = setup().await;
    let server = ScriptedServer::start().await;
    server.push(Reply::text("A red square."));
    let mut home = Home::new(&tools, "paste", &server.openai_base());
    let app = App::launch(&tools, &mut home, &[]).await;
    ui::new_chat(&app).await;
    app.click(".composer textarea").await;

    // WebKitGTK gives the page's paste event no image: the app reads the clipboard itself.
    let _owner = x11::ClipboardImage::start(&tools);
    let windows = x11::windows(app.pid, "Hearth", true);
    x11::press_in(&windows[0], "ctrl+v");
    let chip = ".composer .chip .chip-label";
    let label = eventually("the pasted image's chip", PATIENCE, || app.text_of(chip)).await;
    assert_eq!(label, "pasted-1.png");

    ui::send(&app, "What is in this picture?").await;
    app.wait_css(&format!("{REPLY} .markdown")).await;
    let bodies = model_bodies(&server);
    assert!(
        bodies[0].contains("data:image/png;base64,"),
        "no image in {}",
        bodies[0]
    );
    app.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pdf_dragged_onto_the_window_reaches_the_model_as_its_pages() {
    let (_turn, tools, _fake) = setup().await;
    let server = ScriptedServer::start().await;
    server.push(Reply::text("Revenue grew by twelve percent."));
    let mut home = Home::new(&tools, "drop-pdf", &server.openai_base());
    // A PDF written by fpdf2 (crates/documents/tests/fixtures/make.py, venv from scripts/setup.sh).
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let made = Command::new(root.join("target/doc-fixtures/bin/python"))
        .arg(root.join("crates/documents/tests/fixtures/make.py"))
        .arg(&home.dir)
        .args(["--only", "report.pdf"])
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "make.py failed (run scripts/setup.sh)"
    );
    let pdf = home.dir.join("report.pdf");
    let app = App::launch(&tools, &mut home, &[]).await;
    ui::new_chat(&app).await;

    let mut source = x11::DragSource::start(&tools, &pdf, 1150, 650);
    source.drag_to(420, 480);
    let chip = eventually("the dropped PDF's chip", PATIENCE, || {
        app.text_of(".composer .chip")
    })
    .await;
    assert!(
        chip.contains("report.pdf") && chip.contains("3 of 3 pages"),
        "{chip}"
    );

    ui::send(&app, "How did revenue do?").await;
    app.wait_css(&format!("{REPLY} .markdown")).await;
    let bodies = model_bodies(&server);
    assert_eq!(bodies.len(), 1);
    assert!(
        bodies[0].contains("--- page 1 ---\\nQuarterly report: revenue grew by twelve percent.")
            && bodies[0].contains("--- page 2 ---\\n第二页：季度销售报告，收入增长百分之十二。"),
        "no page text in {}",
        bodies[0]
    );
    app.close().await;
}

const SECRET: &str = "sk-e2e-KEYCHAIN-only-5cd1e8a94b";

fn keychain_has_secret() -> bool {
    let args = ["search", "--all", "service", "Hearth"];
    let out = Command::new("secret-tool").args(args).output().unwrap();
    // secret-tool prints the secret on stdout and the attributes on stderr.
    let text = [out.stdout, out.stderr].concat();
    let text = String::from_utf8_lossy(&text);
    let found = text.contains(&format!("secret = {SECRET}"));
    assert!(
        !found || text.contains("attribute.username = provider:scripted"),
        "{text}"
    );
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_api_key_saved_in_settings_lives_in_the_keychain_only() {
    let (_turn, tools, _fake) = setup().await;
    let server = ScriptedServer::start().await;
    let mut home = Home::new(&tools, "keychain", &server.openai_base());
    let app = App::launch(&tools, &mut home, &[("HEARTH_LOG", "debug")]).await;
    ui::open_provider(&app, "scripted").await;
    app.type_into("input[name=\"api_key\"]", SECRET).await;
    app.click_xpath(&ui::provider_button("scripted", "Save key"))
        .await;

    let masked = format!("••••{}", &SECRET[SECRET.len() - 4..]);
    let hint = eventually("the masked key", PATIENCE, || async {
        app.text_of(".key-status")
            .await
            .filter(|s| s.contains(&masked))
    })
    .await;
    assert!(!hint.contains(SECRET));
    let field = app
        .wait_css("input[name=\"api_key\"]")
        .await
        .prop("value")
        .await;
    assert_eq!(
        field.unwrap().as_deref(),
        Some(""),
        "the field is cleared once stored"
    );
    assert!(
        !ui::page_html(&app).await.contains(SECRET),
        "the key is in the page"
    );

    // The keychain has it (under Hearth's service, the provider's account); no file does.
    assert!(keychain_has_secret(), "secret-tool does not find the key");
    let data = home.data();
    let leaks = files_containing(&data, SECRET.as_bytes());
    assert!(leaks.is_empty(), "the key was written to {leaks:?}");
    app.close().await;
    let leaks = files_containing(&data, SECRET.as_bytes());
    assert!(leaks.is_empty(), "after exit, the key is in {leaks:?}");
    for written in ["hearth.db", "logs/hearth.log"] {
        assert!(data.join(written).is_file(), "{written} was not written");
    }

    // After a restart the hint is back; deleting the key removes it from the keychain.
    let app = App::launch(&tools, &mut home, &[]).await;
    ui::open_provider(&app, "scripted").await;
    eventually("the stored key's hint", PATIENCE, || async {
        app.text_of(".key-status")
            .await
            .filter(|s| s.contains(&masked))
    })
    .await;
    app.click_xpath(&ui::provider_button("scripted", "Delete key"))
        .await;
    eventually("the key to leave the keychain", PATIENCE, || async {
        (!keychain_has_secret()).then_some(())
    })
    .await;
    app.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relaunch_while_the_previous_instance_quits_starts_the_app() {
    let (_turn, tools, _fake) = setup().await;
    let server = ScriptedServer::start().await;
    let mut home = Home::new(&tools, "relaunch", &server.openai_base());
    // Something that owns Hearth's single-instance name and vanishes when called, as a
    // quitting instance does.
    let mut vanishing = Command::new(PYTHON)
        .arg(tools.script("vanishing_instance.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(vanishing.stdout.take().unwrap()).lines();
    assert_eq!(lines.next().unwrap().unwrap(), "ready");

    let mut app = PlainApp::start(&tools, &mut home, &[]);
    assert_eq!(
        lines.next().unwrap().unwrap(),
        "called",
        "the launch did not hand over"
    );
    let _ = vanishing.wait();
    app.wait_ready(Duration::from_secs(60));
    assert!(procs::alive(app.pid()));
    assert!(
        bus::has_owner(bus::SINGLE_INSTANCE),
        "the relaunched app owns the name"
    );
    let log = std::fs::read_to_string(home.data().join("logs/hearth.log")).unwrap();
    assert!(log.contains("starting again"), "{log}");
}
