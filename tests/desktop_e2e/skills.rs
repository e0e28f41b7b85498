//! Skills in the real app: a CeeCore skill installed from a folder on the Skills page after its
//! preview (name, description, permission badges), its badges on the list, and its use with `/`
//! in a chat: the turn is a run of the skill (its instructions reach the model, its tools speak
//! the `ceecore` dialect) and the message shows what was typed with the skill as a chip. `HEARTH_SCREENSHOT=1` also saves `docs/skills.png`.

use std::path::Path;
use std::time::Duration;

use hearth_tests::{Reply, ScriptedServer};
use serde_json::{json, Value};

use crate::desktop::app::App;
use crate::desktop::home::Home;
use crate::desktop::ui::{self, REPLY};
use crate::desktop_e2e::setup;

/// The texts of every element matching `css`.
async fn texts(app: &App, css: &str) -> Vec<String> {
    let found = app
        .js(
            "return [...document.querySelectorAll(arguments[0])].map(e => e.textContent.trim());",
            vec![json!(css)],
        )
        .await;
    serde_json::from_value(found).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_skill_installed_on_the_skills_page_runs_from_the_slash_picker() {
    let (_turn, tools, _fake) = setup().await;
    let server = ScriptedServer::start().await;
    server.push(Reply::text("The daily report is written."));
    let mut home = Home::new(&tools, "skills", &server.openai_base());
    let app = App::launch(&tools, &mut home, &[]).await;
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/skills/tests/fixtures/daily-report");

    app.click("nav.sidebar-pages button:nth-child(3)").await;
    app.wait_css(".skills-page .skills-empty").await;
    app.click(".skills-page button.skills-install").await;
    app.type_into(
        "input[name=\"skill_location\"]",
        &fixture.display().to_string(),
    )
    .await;
    app.click("button.skill-preview").await;
    app.wait_css(".skill-install .skill-confirm").await;
    let badges = [".skill-format", ".skill-permission"];
    let preview = texts(&app, &format!(".skill-install {}", badges[1])).await;
    assert_eq!(preview, ["Internet", "Files", "Notifications"]);
    assert!(
        !home.data().join("skills/daily-report").exists(),
        "nothing lands before Install"
    );
    app.click(".skill-install .skill-confirm").await;
    let listed = "li.skill[data-skill=\"daily-report\"]";
    app.wait_css(&format!("{listed} .skill-permission")).await;
    assert_eq!(
        texts(&app, &format!("{listed} .skill-permission")).await,
        ["Internet", "Files", "Notifications"]
    );
    assert_eq!(
        texts(&app, &format!("{listed} {}", badges[0])).await,
        ["CeeCore"]
    );
    assert!(home
        .data()
        .join("skills/daily-report/manifest.json")
        .is_file());
    if std::env::var("HEARTH_SCREENSHOT").is_ok_and(|v| v == "1") {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let png = app.client.screenshot().await.unwrap();
        std::fs::write(tools.root.join("docs/skills.png"), png).unwrap();
    }

    ui::new_chat(&app).await;
    app.type_into(".composer textarea", "/daily").await;
    app.wait_css(".slash-picker [role=option][data-command=\"/daily-report\"][aria-selected=true]")
        .await;
    app.type_into(".composer textarea", "\u{E007}").await;
    app.wait_css(".skill-chip[data-skill=\"daily-report\"]")
        .await;
    ui::send(&app, "for Monday").await;
    app.wait_css(REPLY).await;

    let requests = server.model_requests();
    let body: &Value = &requests[0].body;
    let said = body.to_string();
    assert!(
        said.contains("Search memory for today's notes"),
        "the skill's instructions: {said}"
    );
    assert!(said.contains("for Monday"));
    let offered: Vec<&str> = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert!(
        offered.contains(&"send_notification"),
        "ceecore names: {offered:?}"
    );
    assert!(
        !offered.contains(&"exec") && !offered.contains(&"bash"),
        "{offered:?}"
    );
    assert_eq!(
        app.count(".composer .skill-chip").await,
        0,
        "the skill was for that message"
    );
    // The bubble holds what was typed and the skill as a chip, never the instructions.
    let bubble = "article.message.user";
    assert_eq!(
        texts(&app, &format!("{bubble} .user-text")).await,
        ["for Monday"]
    );
    assert_eq!(
        texts(&app, &format!("{bubble} .skill-chip")).await,
        ["Skill: daily-report"]
    );
    let shown = texts(&app, bubble).await.join("\n");
    assert!(
        !shown.contains("Search memory for today's notes") && !shown.contains("Use the skill"),
        "{shown}"
    );
    app.close().await;
}
