//! High-risk tools in the real Hearth app (tauri-driver + WebKitWebDriver, Xvfb, a D-Bus session)
//! against the scripted model server: the model calls `exec`, the approval card shows the exact
//! command, "Allow once" runs it and its card shows the output, "Deny" runs nothing and tells the
//! model; a `pty` session's card shows its live screen (xterm.js); a background `process` the
//! model started dies when the app quits from the tray; the model's checklist (`todo`) is pinned
//! above the composer and its question (`clarify`) is answered with a button on its card; the
//! `browser` tool's card shows the page and its screenshot and the browser ends with the app;
//! MCP servers (`mcp.rs`), sub-agents (`subagents.rs`) and channels (`channels.rs`).
//!
//! Run: `bash scripts/with-headless-session.sh cargo test -p hearth-tests --test app_e2e
//! desktop_tools_e2e`
//! (after `bash scripts/e2e-setup.sh` and `cargo build --workspace --bins`). The tests take turns:
//! the app is single-instance per session bus.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "desktop_tools_e2e/channels.rs"]
mod channels;
#[path = "desktop_tools_e2e/mcp.rs"]
mod mcp;
#[path = "desktop_tools_e2e/subagents.rs"]
mod subagents;

use std::time::Duration;

use crate::desktop::app::App;
use crate::desktop::env::Tools;
use crate::desktop::home::{eventually, Home, PATIENCE};
use crate::desktop::tray::TrayMenu;
use crate::desktop::turn::{self, Turn};
use crate::desktop::{procs, ui};
use hearth_tests::{Reply, ScriptedServer};
use serde_json::json;

/// Waits for this test's turn, checks the preconditions and starts the fake notification server
/// (so no real notification daemon is auto-started on the test bus).
async fn setup() -> (Turn, Tools) {
    let (turn, tools, _) = turn::take(false).await;
    (turn, tools)
}

/// A home whose tool profile exposes the execution tools (`full`); security stays
/// `personal_cli`, so every high-risk call asks.
fn home_with_full_tools(tools: &Tools, name: &str, server: &ScriptedServer) -> Home {
    let home = Home::new(tools, name, &server.openai_base());
    let config = home.data().join("config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, format!("tool_profile = \"full\"\n{text}")).unwrap();
    home
}

fn card(tool: &str) -> String {
    format!(".tool-card[data-tool=\"{tool}\"]")
}

/// Waits for the approval card of `tool`, checks it shows `shown`, and clicks `button`
/// (`primary` = Allow once, `danger` = Deny).
async fn decide(app: &App, tool: &str, shown: &str, button: &str) {
    let args = format!("{} .approval.pending .approval-args", card(tool));
    let text = eventually("the approval card", PATIENCE, || app.text_of(&args)).await;
    assert!(text.contains(shown), "approval card shows {text:?}");
    app.click(&format!("{} .approval-buttons button.{button}", card(tool)))
        .await;
}

fn workspace_file(home: &Home, name: &str) -> std::path::PathBuf {
    home.data().join("workspace").join(name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow_once_runs_exec_and_its_card_shows_the_output() {
    let (_turn, tools) = setup().await;
    let server = ScriptedServer::start().await;
    let command = "printf 'exec-ran-%s\\n' 7f3a > allowed.txt; cat allowed.txt";
    server.push(Reply::tool_call("exec", json!({ "command": command })));
    server.push(Reply::text("The command ran."));
    let mut home = home_with_full_tools(&tools, "exec-allow", &server);
    let app = App::launch(&tools, &mut home, &[]).await;
    ui::new_chat(&app).await;
    ui::send(&app, "Run the command, please.").await;

    decide(&app, "exec", "allowed.txt", "primary").await;
    app.wait_css(&format!("{}[data-status=\"ok\"]", card("exec")))
        .await;
    app.wait_css(ui::REPLY).await;
    let decision = app
        .text_of(&format!("{} .approval.decided", card("exec")))
        .await;
    assert!(decision.is_some(), "the card records the decision");
    app.click(&format!("{} .tool-head", card("exec"))).await;
    let body_css = format!("{} .tool-body", card("exec"));
    let body = eventually("the exec result", PATIENCE, || async {
        app.text_of(&body_css)
            .await
            .filter(|b| b.contains("exec-ran-7f3a"))
    })
    .await;
    assert!(body.contains("\"exit_code\": 0"), "result card: {body}");
    let written = std::fs::read_to_string(workspace_file(&home, "allowed.txt")).unwrap();
    assert_eq!(written, "exec-ran-7f3a\n");
    let requests = server.model_requests();
    assert_eq!(requests.len(), 2);
    assert!(requests[1].body.to_string().contains("exec-ran-7f3a"));
    app.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deny_runs_nothing_and_the_model_sees_the_denial() {
    let (_turn, tools) = setup().await;
    let server = ScriptedServer::start().await;
    let command = "touch denied-marker.txt";
    server.push(Reply::tool_call("exec", json!({ "command": command })));
    server.push(Reply::text("Understood, I will not run it."));
    let mut home = home_with_full_tools(&tools, "exec-deny", &server);
    let app = App::launch(&tools, &mut home, &[]).await;
    ui::new_chat(&app).await;
    ui::send(&app, "Create the marker file.").await;

    decide(&app, "exec", "denied-marker.txt", "danger").await;
    app.wait_css(&format!("{}[data-status=\"error\"]", card("exec")))
        .await;
    app.wait_css(ui::REPLY).await;
    let requests = server.model_requests();
    assert_eq!(requests.len(), 2);
    let second = requests[1].body.to_string();
    assert!(
        second.contains("denied_by_user") || second.contains("did not approve"),
        "the model was not told: {second}"
    );
    assert!(
        !workspace_file(&home, "denied-marker.txt").exists(),
        "the denied command ran"
    );
    app.close().await;
}

/// The command line of a process, or None when it is gone.
fn cmdline(pid: u32) -> Option<String> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    Some(String::from_utf8_lossy(&raw).replace('\0', " "))
}

/// The running processes below `root` whose command line contains `needle`.
fn below_with(root: u32, needle: &str) -> Vec<u32> {
    procs::descendants(root)
        .into_iter()
        .filter(|pid| cmdline(*pid).is_some_and(|c| c.contains(needle)))
        .collect()
}

/// Quits the app from the tray and checks that each of `pids` (`what`) ended with it.
fn quit_and_check_ended(app: App, pids: Vec<u32>, what: &str) {
    let tray = TrayMenu::find(app.pid, PATIENCE);
    tray.click("Quit");
    app.expect_exit(Duration::from_secs(15));
    for pid in pids {
        assert!(
            procs::wait_exit(pid, Duration::from_secs(10)),
            "{what} {pid} ({:?}) outlived the app",
            cmdline(pid)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_background_process_dies_when_the_app_quits_from_the_tray() {
    let (_turn, tools) = setup().await;
    let server = ScriptedServer::start().await;
    // A distinctive duration marks the child among every process on the machine.
    let marker = "sleep 4711";
    let start = json!({"action": "start", "command": marker, "timeout": 3600});
    server.push(Reply::tool_call("process", start));
    server.push(Reply::text("It runs in the background."));
    let mut home = home_with_full_tools(&tools, "process-exit", &server);
    let app = App::launch(&tools, &mut home, &[]).await;
    ui::new_chat(&app).await;
    ui::send(&app, "Start the sleeper.").await;
    decide(&app, "process", marker, "primary").await;
    app.wait_css(&format!("{}[data-status=\"ok\"]", card("process")))
        .await;
    let children = eventually("the background sleeper", PATIENCE, || async {
        Some(below_with(app.pid, "4711")).filter(|p| !p.is_empty())
    })
    .await;
    assert!(children.iter().all(|pid| procs::alive(*pid)));
    quit_and_check_ended(app, children, "background process");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_card_shows_the_page_and_its_screenshot_and_the_browser_ends_with_the_app() {
    let (_turn, tools) = setup().await;
    let page = axum::Router::new().route(
        "/",
        axum::routing::get(|| async {
            axum::response::Html("<!doctype html><title>Card page 5e1</title><h1>Hello card</h1>")
        }),
    );
    let socket = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = socket.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(socket, page).await.unwrap() });
    let url = format!("http://127.0.0.1:{port}/");
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "browser",
        json!({"action": "open", "url": url}),
    ));
    server.push(Reply::tool_call("browser", json!({"action": "screenshot"})));
    server.push(Reply::text("Here is the page."));
    let mut home = home_with_full_tools(&tools, "browser-card", &server);
    let config = home.data().join("config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    let allowed = format!("allow_local_hosts = [\"127.0.0.1:{port}\"]\n{text}");
    std::fs::write(&config, allowed).unwrap();
    let app = App::launch(&tools, &mut home, &[]).await;
    ui::new_chat(&app).await;
    ui::send(&app, "Open the page and show it to me.").await;
    app.wait_css(ui::REPLY).await;
    let line = format!(
        "{} .browser-view[data-action=\"open\"] .browser-line",
        card("browser")
    );
    let shown = eventually("the browser card's page title", PATIENCE, || async {
        app.text_of(&line)
            .await
            .filter(|t| t.contains("Card page 5e1"))
    })
    .await;
    assert!(
        shown.contains("Card page 5e1") && shown.contains(&url),
        "the card shows {shown:?}"
    );
    let thumbs = format!("{} .tool-images .thumb", card("browser"));
    eventually("the screenshot thumbnail", PATIENCE, || async {
        Some(app.count(&thumbs).await).filter(|n| *n > 0)
    })
    .await;
    let browsers = below_with(app.pid, "--remote-debugging");
    assert!(
        !browsers.is_empty(),
        "the managed browser runs below the app"
    );
    quit_and_check_ended(app, browsers, "browser process");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pty_session_shows_its_screen_in_the_tool_card() {
    let (_turn, tools) = setup().await;
    let server = ScriptedServer::start().await;
    let command = "bash --norc --noprofile -c 'echo pty-screen-4e1b; sleep 30'";
    server.push(Reply::tool_call(
        "pty",
        json!({"action": "spawn", "command": command}),
    ));
    server.push(Reply::text("The terminal is open."));
    let mut home = home_with_full_tools(&tools, "pty-view", &server);
    let app = App::launch(&tools, &mut home, &[]).await;
    ui::new_chat(&app).await;
    ui::send(&app, "Open a terminal.").await;
    decide(&app, "pty", "pty-screen-4e1b", "primary").await;
    let screen = format!("{} .terminal-view .xterm-rows", card("pty"));
    let text = eventually("the terminal's screen", PATIENCE, || async {
        app.text_of(&screen)
            .await
            .filter(|t| t.contains("pty-screen-4e1b"))
    })
    .await;
    assert!(text.contains("pty-screen-4e1b"), "{text}");
    let state = app
        .js(
            "return document.querySelector('.terminal-view').dataset.state;",
            vec![],
        )
        .await;
    assert_eq!(state.as_str(), Some("live"));
    app.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_checklist_is_pinned_and_a_question_is_answered_on_its_card() {
    let (_turn, tools) = setup().await;
    let server = ScriptedServer::start().await;
    let plan = json!({"action": "create", "items": ["Pick the format", "Write the report"]});
    server.push(Reply::tool_call("todo", plan));
    let question =
        json!({"question": "Which format should the report use?", "options": ["PDF", "Word"]});
    server.push(Reply::tool_call("clarify", question));
    server.push(Reply::text("Word it is."));
    let mut home = home_with_full_tools(&tools, "clarify-answer", &server);
    let app = App::launch(&tools, &mut home, &[]).await;
    ui::new_chat(&app).await;
    ui::send(&app, "Write the report.").await;

    let asked = eventually("the question card", PATIENCE, || app.text_of(".question")).await;
    assert!(
        asked.contains("Which format should the report use?"),
        "{asked}"
    );
    let checklist = eventually("the pinned checklist", PATIENCE, || app.text_of(".todo")).await;
    assert!(checklist.contains("Pick the format"), "{checklist}");
    assert!(checklist.contains("0 of 2 done"), "{checklist}");
    app.click_xpath("//div[contains(@class,'question')]//button[normalize-space()='Word']")
        .await;
    app.wait_css(&format!("{}[data-status=\"ok\"]", card("clarify")))
        .await;
    app.wait_css(ui::REPLY).await;
    assert_eq!(
        app.count(".question").await,
        0,
        "the card closes once answered"
    );
    let requests = server.model_requests();
    assert_eq!(requests.len(), 3);
    let third = requests[2].body.to_string();
    assert!(
        third.contains(r#"\"answer\":\"Word\""#),
        "the model got: {third}"
    );
    app.close().await;
}
