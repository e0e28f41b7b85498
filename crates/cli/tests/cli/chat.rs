//! Chats with a tool call through each provider's wire format, and a continued session.

use super::*;

async fn chat_with_calculator(provider: &str) {
    let server = ScriptedServer::start().await;
    server.push(
        Reply::tool_call(
            "calculator",
            json!({"action": "evaluate", "expression": "6*7"}),
        )
        .with_text("Let me compute that."),
    );
    server.push(Reply::text("The answer is **42**."));
    let cli = Cli::new();
    let out = cli.chat(&server, provider, "what is 6 times 7?").await;
    assert!(
        out.status.success(),
        "{provider}: chat failed: {}",
        text(&out.stderr)
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Let me compute that."),
        "{provider}: {stdout}"
    );
    assert!(
        stdout.contains("The answer is **42**."),
        "{provider}: {stdout}"
    );
    let stderr = text(&out.stderr);
    assert!(stderr.contains("→ calculator"), "{provider}: {stderr}");
    assert!(stderr.contains("← calculator ok"), "{provider}: {stderr}");

    let id = session_id(&out.stderr);
    let shown = cli.session_json(&id).await;
    let messages = shown["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(
        roles,
        ["user", "assistant", "tool", "assistant"],
        "{provider}"
    );
    assert!(
        messages.iter().all(|m| m["status"] == "complete"),
        "{provider}: {shown}"
    );
    assert_eq!(messages[1]["tool_calls"][0]["name"], "calculator");
    let result: Value =
        serde_json::from_str(messages[2]["tool_result"]["content"].as_str().unwrap()).unwrap();
    assert_eq!(result["result"], json!(42), "{provider}: {result}");

    // The second model request carried the tool result back to the model.
    let requests = server.model_requests();
    assert_eq!(requests.len(), 2, "{provider}");
    let second = requests[1].body.to_string();
    assert!(second.contains("42"), "{provider}: {second}");
    if provider == "gemini" {
        // The call went back with the thought signature it came with, through the store.
        let call = requests[1].body["contents"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|c| c["parts"].as_array().unwrap())
            .find(|p| p.get("functionCall").is_some())
            .unwrap();
        assert_eq!(call["thoughtSignature"], "c2NyaXB0ZWQ-1", "{second}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_runs_a_tool_loop_with_openai() {
    chat_with_calculator("openai").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_runs_a_tool_loop_with_anthropic() {
    chat_with_calculator("anthropic").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_runs_a_tool_loop_with_ollama() {
    chat_with_calculator("ollama").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_runs_a_tool_loop_with_gemini() {
    chat_with_calculator("gemini").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_continues_a_session() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("first"));
    server.push(Reply::text("second"));
    let cli = Cli::new();
    let out = cli.chat(&server, "openai", "one").await;
    let id = session_id(&out.stderr);
    let base = server.openai_base();
    let out = cli
        .run(&[
            "--provider",
            "openai",
            "--base-url",
            &base,
            "--model",
            "m",
            "chat",
            "--session",
            &id,
            "two",
        ])
        .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = cli.session_json(&id).await;
    assert_eq!(shown["messages"].as_array().unwrap().len(), 4);
    // The second request carried the first exchange.
    assert!(server.model_requests()[1]
        .body
        .to_string()
        .contains("first"));
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_titles_a_new_session_after_its_first_reply() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("Tea keeps best in a dark tin."));
    server.push_title(Reply::text("Keeping green tea fresh"));
    server.push(Reply::text("About a year."));
    let cli = Cli::new();
    let out = cli
        .chat(&server, "openai", "how should I store green tea at home?")
        .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("title: Keeping green tea fresh"),
        "{}",
        text(&out.stderr)
    );
    let id = session_id(&out.stderr);
    assert_eq!(
        cli.session_json(&id).await["session"]["title"],
        "Keeping green tea fresh"
    );
    assert_eq!(server.title_requests().len(), 1);
    let asked = server.title_requests()[0].body.to_string();
    assert!(asked.contains("green tea"), "{asked}");

    // A later reply in the same chat asks for no title and keeps the one written.
    let base = server.openai_base();
    let out = cli
        .run(&[
            "--provider",
            "openai",
            "--base-url",
            &base,
            "--model",
            "m",
            "chat",
            "--session",
            &id,
            "how long does it keep?",
        ])
        .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(server.title_requests().len(), 1);
    assert_eq!(
        cli.session_json(&id).await["session"]["title"],
        "Keeping green tea fresh"
    );
}
