//! MCP servers in the real app with server-everything: one added in Settings becomes ready and
//! its tool runs, `/mcp` lists its resources and one is attached; its elicitation is one form
//! card in the chat, filled in and sent, and the server gets the values typed by its schema.

use super::*;

/// server-everything's entry point, installed under `target/` by `scripts/setup.sh`.
fn everything_js() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../target/mcp-node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        path.exists(),
        "{} is missing: run scripts/setup.sh",
        path.display()
    );
    path.display().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_server_added_in_settings_becomes_ready_and_its_tool_runs() {
    let (_turn, tools) = setup().await;
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "mcp__everything__echo",
        json!({"message": "mcp-echo-5c2d"}),
    ));
    server.push(Reply::text("It echoed."));
    server.push(Reply::text("Read it."));
    let mut home = home_with_full_tools(&tools, "mcp-settings", &server);
    let app = App::launch(&tools, &mut home, &[]).await;

    // Added in Settings → MCP servers: started at once, no restart of the app.
    app.click(".sidebar-bottom button").await;
    app.click_xpath("//section[@id='mcp']//button[normalize-space()='Add a server']")
        .await;
    app.type_into("input[name=\"mcp_name\"]", "everything")
        .await;
    app.type_into(
        "input[name=\"mcp_command\"]",
        &format!("node {} stdio", everything_js()),
    )
    .await;
    app.click_xpath("//section[@id='mcp']//button[normalize-space()='Add']")
        .await;
    let ready = "[data-server=\"everything\"] [data-state=\"ready\"]";
    let label = eventually("the server ready", PATIENCE, || app.text_of(ready)).await;
    assert!(label.starts_with("Ready with "), "{label}");
    let config = std::fs::read_to_string(home.data().join("config.toml")).unwrap();
    assert!(
        config.contains("[[mcp_servers]]") && config.contains("everything"),
        "{config}"
    );
    // Trusting read-only tools lets `echo` (annotated read-only) run without asking.
    app.click("[data-server=\"everything\"] input[name=\"mcp_trust_read_only\"]")
        .await;
    eventually("the trust saved", PATIENCE, || async {
        let config = std::fs::read_to_string(home.data().join("config.toml")).unwrap();
        config.contains("trust_read_only = true").then_some(())
    })
    .await;

    app.click(".settings-header button").await;
    ui::new_chat(&app).await;
    ui::send(&app, "Echo something.").await;
    let echo = card("mcp__everything__echo");
    app.wait_css(&format!("{echo}[data-status=\"ok\"]")).await;
    app.wait_css(ui::REPLY).await;
    app.click(&format!("{echo} .tool-head")).await;
    let body = eventually("the echo result", PATIENCE, || async {
        app.text_of(&format!("{echo} .tool-body"))
            .await
            .filter(|b| b.contains("Echo: mcp-echo-5c2d"))
    })
    .await;
    assert!(
        body.contains("everything"),
        "the result names its server: {body}"
    );
    let requests = server.model_requests();
    assert!(
        requests[0]
            .body
            .to_string()
            .contains("mcp__everything__echo"),
        "the model was offered the tool"
    );

    // `/mcp` lists its resources; one attached goes into the next message as a chip.
    ui::send(&app, "/mcp").await;
    let attach = "[data-resources=\"everything\"] li[data-uri] button";
    app.wait_css(attach).await;
    app.click(attach).await;
    let chip = eventually("the resource chip", PATIENCE, || {
        app.text_of(".composer .chip")
    })
    .await;
    assert!(chip.contains("everything: demo://resource/"), "{chip}");
    ui::send(&app, "Summarise the attached resource.").await;
    eventually("the third model request", PATIENCE, || async {
        (server.model_requests().len() >= 3).then_some(())
    })
    .await;
    let sent = server.model_requests()[2].body.to_string();
    assert!(
        sent.contains("Attached MCP resource `everything` `demo://resource/"),
        "the resource's text reached the model: {sent}"
    );
    app.close().await;
}

/// A home with server-everything configured (over stdio).
fn home_with_everything(tools: &Tools, name: &str, server: &ScriptedServer) -> Home {
    let home = home_with_full_tools(tools, name, server);
    let config = home.data().join("config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    let everything = format!(
        "\n[[mcp_servers]]\nname = \"everything\"\ncommand = \"node\"\nargs = [{:?}, \"stdio\"]\n",
        everything_js()
    );
    std::fs::write(&config, text + &everything).unwrap();
    home
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_elicitation_is_one_form_card_and_the_server_gets_the_typed_values() {
    let (_turn, tools) = setup().await;
    let server = ScriptedServer::start().await;
    let tool = "mcp__everything__trigger-elicitation-request";
    server.push(Reply::tool_call(tool, json!({})));
    server.push(Reply::text("Thank you, Ada."));
    let mut home = home_with_everything(&tools, "mcp-form", &server);
    let app = App::launch(&tools, &mut home, &[]).await;
    // The server starts in the background: its tools are offered once it is ready.
    app.click(".sidebar-bottom button").await;
    let ready = "[data-server=\"everything\"] [data-state=\"ready\"]";
    eventually("the server ready", PATIENCE, || app.text_of(ready)).await;
    app.click(".settings-header button").await;
    ui::new_chat(&app).await;
    ui::send(&app, "Ask me for my details.").await;
    decide(&app, tool, "", "primary").await;

    let form = ".form-card";
    let title = eventually("the form card", PATIENCE, || app.text_of(form)).await;
    assert!(
        title.contains("everything asks you to fill in a form")
            && title.contains("Please provide inputs for the following fields:"),
        "{title}"
    );
    // Defaults are filled in; a choice is shown by its title and sent by its value.
    let integer = app
        .js(
            "return document.querySelector('.form-card input[name=integer]').value",
            vec![],
        )
        .await;
    assert_eq!(integer, json!("42"));
    let hero = app
        .js(
            "const s = document.querySelector('.form-card select[name=titledSingleSelectEnum]'); \
             return s.options[s.selectedIndex].text",
            vec![],
        )
        .await;
    assert_eq!(hero, json!("Superman"));
    // Sent without the required name: the card says so and stays.
    app.click(&format!("{form} button[type=submit]")).await;
    let name_problem = format!("{form} [data-field=\"name\"] [role=alert]");
    let problem = eventually("the required field's problem", PATIENCE, || {
        app.text_of(&name_problem)
    })
    .await;
    assert_eq!(problem, "Required.");

    app.type_into(&format!("{form} input[name=name]"), "Ada Lovelace")
        .await;
    app.type_into(&format!("{form} input[name=email]"), "ada@example.org")
        .await;
    app.click_xpath(
        "//form[contains(@class,'form-card')]//select[@name='untitledSingleSelectEnum']/option[.='Rachel']",
    )
    .await;
    app.click(&format!(
        "{form} input[name=untitledMultipleSelectEnum][value=Piano]"
    ))
    .await;
    app.click(&format!("{form} input[name=check]")).await;
    app.click(&format!("{form} button[type=submit]")).await;

    let card = card(tool);
    app.wait_css(&format!("{card}[data-status=\"ok\"]")).await;
    app.wait_css(ui::REPLY).await;
    assert_eq!(app.count(form).await, 0, "the form card closes once sent");
    let requests = server.model_requests();
    assert_eq!(requests.len(), 2);
    let result = requests[1].body.to_string();
    for sent in [
        "User provided the requested information",
        "- Name: Ada Lovelace",
        "- Agreed to terms: true",
        "- Email: ada@example.org",
        // Left as they were: the schema's defaults, typed as numbers.
        "- Favorite Integer: 42",
        "- Favorite Number: 3.14",
        "Rachel",
        "Piano",
        "hero-1",
    ] {
        assert!(
            result.contains(sent),
            "{sent:?} not in what the model got: {result}"
        );
    }
    app.close().await;
}
