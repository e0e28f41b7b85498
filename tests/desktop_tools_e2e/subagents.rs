//! Sub-agents in the real app: the cards of a `delegate_task` turn (goal, status, steps,
//! tokens), a child's approval shown in the parent window labelled with the child and allowed
//! there, Cancel stopping a running child, "Open transcript" showing the child's session, the
//! background-tasks panel, and Settings → Agents saving a persona that `agents_route` uses.

use super::*;

fn agent_card(goal: &str) -> String {
    format!(".subagent-card[data-goal=\"{goal}\"]")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sub_agent_cards_approvals_cancel_and_the_transcript_in_the_window() {
    let (_turn, tools) = setup().await;
    let server = ScriptedServer::start().await;
    let tasks = [
        "approve-child: write the marker",
        "slow-child: wait for news",
    ];
    server.push(Reply::tool_call(
        "delegate_task",
        json!({"goal": "Check in", "tasks": tasks, "tools": ["exec"]}),
    ));
    server.push(Reply::text("Both sub-agents reported."));
    server.push_for(
        "approve-child",
        Reply::tool_call("exec", json!({"command": "echo child-ok > child.txt"})),
    );
    server.push_for(
        "approve-child",
        Reply::text("marker written").with_usage(40, 7),
    );
    // Answers long after the test cancels it.
    server.push_for("slow-child", Reply::text("too late").after(120_000));
    let mut home = home_with_full_tools(&tools, "subagent-cards", &server);
    let app = App::launch(&tools, &mut home, &[]).await;
    let parent = ui::new_chat(&app).await;
    ui::send(&app, "Check in with two helpers.").await;

    // The child's exec asks in this window, labelled with the child.
    let reason = eventually("the child's approval", PATIENCE, || async {
        app.text_of(&format!("{} .approval.pending", card("exec")))
            .await
    })
    .await;
    assert!(
        reason.contains("Sub-agent \"approve-child: write the marker\""),
        "{reason}"
    );
    decide(&app, "exec", "child.txt", "primary").await;
    let done = agent_card(tasks[0]);
    app.wait_css(&format!("{done}[data-status=\"completed\"]"))
        .await;
    let facts = app.text_of(&format!("{done} .facts")).await.unwrap();
    assert!(facts.contains("50 in · 12 out"), "{facts}");
    assert!(facts.contains("2 steps"), "{facts}");
    let written = std::fs::read_to_string(workspace_file(&home, "child.txt")).unwrap();
    assert_eq!(written, "child-ok\n");

    // Cancel stops the slow one within 2 s and the parent's turn goes on.
    let slow = agent_card(tasks[1]);
    app.wait_css(&format!("{slow}[data-status=\"running\"]"))
        .await;
    let cancelled_at = std::time::Instant::now();
    app.click(&format!("{slow} button.cancel")).await;
    app.wait_css(&format!("{slow}[data-status=\"cancelled\"]"))
        .await;
    assert!(
        cancelled_at.elapsed() < Duration::from_secs(2),
        "cancelling took {:?}",
        cancelled_at.elapsed()
    );
    eventually("the parent's answer", PATIENCE, || async {
        app.text_of("section.chat")
            .await
            .filter(|t| t.contains("Both sub-agents reported."))
    })
    .await;

    // Open transcript shows the child's own session.
    app.click(&format!("{done} button.transcript")).await;
    let transcript = eventually("the child's transcript", PATIENCE, || async {
        app.text_of("section.chat")
            .await
            .filter(|t| t.contains("marker written"))
    })
    .await;
    assert!(transcript.contains("approve-child"), "{transcript}");
    assert_ne!(ui::open_chat(&app).await.as_deref(), Some(parent.as_str()));
    app.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_background_task_shows_in_the_panel_and_its_report_in_the_chat() {
    let (_turn, tools) = setup().await;
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "spawn_task",
        json!({"task": "bg-panel: count the files"}),
    ));
    server.push(Reply::text("It runs in the background."));
    server.push_for("bg-panel", Reply::text("there are 3 files").after(1_500));
    let mut home = home_with_full_tools(&tools, "subagent-background", &server);
    let app = App::launch(&tools, &mut home, &[]).await;
    ui::new_chat(&app).await;
    ui::send(&app, "Count them in the background.").await;

    let task = ".background-task";
    let status = eventually("the background task in the panel", PATIENCE, || async {
        app.js(
            "const t = document.querySelector('.background-task'); return t && t.dataset.status;",
            vec![],
        )
        .await
        .as_str()
        .map(str::to_string)
    })
    .await;
    assert!(
        ["running", "completed"].contains(&status.as_str()),
        "{status}"
    );
    app.wait_css(&format!("{task}[data-status=\"completed\"]"))
        .await;
    let listed = app.text_of(task).await.unwrap();
    assert!(listed.contains("bg-panel: count the files"), "{listed}");
    let report = eventually("the report in the parent chat", PATIENCE, || async {
        app.text_of("section.chat")
            .await
            .filter(|t| t.contains("there are 3 files"))
    })
    .await;
    assert!(report.contains("completed"), "{report}");
    app.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_persona_saved_in_settings_is_the_one_agents_route_runs() {
    let (_turn, tools) = setup().await;
    let server = ScriptedServer::start().await;
    let mut home = home_with_full_tools(&tools, "subagent-persona", &server);
    let app = App::launch(&tools, &mut home, &[]).await;
    app.click(".sidebar-bottom button").await;
    let section = "section[aria-labelledby=\"agents-title\"]";
    app.wait_css(section).await;
    app.click_xpath(
        "//section[@aria-labelledby='agents-title']//button[normalize-space()='Add agent']",
    )
    .await;
    app.type_into(&format!("{section} input[name=\"agent_name\"]"), "reviewer")
        .await;
    app.type_into(
        &format!("{section} input[name=\"agent_description\"]"),
        "Reviews changes",
    )
    .await;
    app.type_into(
        &format!("{section} textarea[name=\"agent_prompt\"]"),
        "You are the persona-7c1 reviewer.",
    )
    .await;
    app.click(&format!("{section} button.primary")).await;
    let config = home.data().join("config.toml");
    let saved = eventually("the persona in config.toml", PATIENCE, || async {
        std::fs::read_to_string(&config)
            .ok()
            .filter(|c| c.contains("[[agents]]"))
    })
    .await;
    assert!(saved.contains("name = \"reviewer\""), "{saved}");

    server.push(Reply::tool_call(
        "agents_route",
        json!({"agent": "reviewer", "message": "route-7c1: look at the diff"}),
    ));
    server.push(Reply::text("The reviewer answered."));
    server.push_for("route-7c1", Reply::text("looks fine"));
    app.click(".settings-header button").await;
    ui::new_chat(&app).await;
    ui::send(&app, "Ask the reviewer.").await;
    app.wait_css(&format!("{}[data-status=\"ok\"]", card("agents_route")))
        .await;
    app.wait_css(ui::REPLY).await;
    let child = server
        .model_requests()
        .into_iter()
        .map(|r| r.body.to_string())
        .find(|body| body.contains("route-7c1"))
        .expect("the persona's request");
    assert!(
        child.contains("You are the persona-7c1 reviewer."),
        "{child}"
    );
    app.close().await;
}
