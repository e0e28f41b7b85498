//! MCP servers through the CLI: `mcp add|list|tools|remove|import` (and `login`/`logout`
//! refusing what has nothing to sign in to), MCP tools through
//! `tools call` under each security profile (ask, refused under daemon and public_gateway,
//! read-only trust, per-tool Never), and chat turns whose model calls an MCP tool (its result,
//! a tool of a server that failed to start; media results in `media`).

use super::*;

mod media;

fn everything_js() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../target/mcp-node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        path.exists(),
        "{} is missing: run scripts/setup.sh",
        path.display()
    );
    path.display().to_string()
}

/// `config.toml` with server-everything as `everything`, plus `extra` lines in its table.
fn configure(cli: &Cli, extra: &str) {
    let config = format!(
        "[[mcp_servers]]\nname = \"everything\"\ncommand = \"node\"\nargs = [{:?}, \"stdio\"]\n{extra}",
        everything_js()
    );
    std::fs::write(cli.home.path().join("config.toml"), config).unwrap();
}

async fn call(cli: &Cli, tool: &str, args: &str, extra: &[&str]) -> (Value, bool) {
    let mut argv = vec!["tools", "call", tool, args];
    argv.extend(extra);
    let out = cli.run(&argv).await;
    let value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{tool}: {}{}", text(&out.stdout), text(&out.stderr)));
    (value, out.status.success())
}

#[tokio::test(flavor = "multi_thread")]
async fn mcp_calls_ask_and_are_refused_under_daemon_and_public_gateway() {
    let cli = Cli::new();
    configure(&cli, "");
    let echo = r#"{"message":"hi from the cli"}"#;
    let (value, ok) = call(&cli, "mcp__everything__echo", echo, &[]).await;
    assert!(
        !ok && value["error"]["kind"] == "denied_by_user",
        "no terminal to ask: {value}"
    );
    let (value, ok) = call(&cli, "mcp__everything__echo", echo, &["--approve"]).await;
    assert!(ok, "{value}");
    assert!(value["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("hi from the cli"));
    for security in ["daemon", "public_gateway"] {
        let (value, ok) = call(
            &cli,
            "mcp__everything__echo",
            echo,
            &["--security", security, "--approve"],
        )
        .await;
        assert!(!ok, "{security}: {value}");
        assert_eq!(
            value["error"]["kind"], "not_permitted",
            "{security}: {value}"
        );
        assert!(
            value["error"]["message"]
                .as_str()
                .unwrap()
                .contains(security),
            "{value}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn read_only_trust_and_per_tool_never() {
    let cli = Cli::new();
    configure(&cli, "trust_read_only = true\n[mcp_servers.tools]\nget-sum = \"never\"\ntoggle-simulated-logging = \"ask\"\n");
    let (value, ok) = call(&cli, "mcp__everything__echo", r#"{"message":"x"}"#, &[]).await;
    assert!(
        ok,
        "a read-only tool of a trusted server runs unasked: {value}"
    );
    let (value, ok) = call(&cli, "mcp__everything__toggle-simulated-logging", "{}", &[]).await;
    assert!(!ok && value["error"]["kind"] == "denied_by_user", "{value}");
    let (value, ok) = call(
        &cli,
        "mcp__everything__get-sum",
        r#"{"a":1,"b":2}"#,
        &["--approve"],
    )
    .await;
    assert!(
        !ok && value["error"]["kind"] == "not_found",
        "Never hides the tool: {value}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_chat_turn_calls_an_mcp_tool_and_gets_its_result() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "mcp__everything__get-sum",
        json!({"a": 19, "b": 23}),
    ));
    server.push(Reply::text("The sum is 42."));
    let cli = Cli::new();
    configure(&cli, "");
    let out = cli
        .chat_with(&server, "openai", &["--approve", "add 19 and 23"])
        .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("The sum is 42."));
    let requests = server.model_requests();
    let second = requests.last().unwrap().body.to_string();
    assert!(
        second.contains("The sum of 19 and 23 is 42"),
        "the tool result reached the model: {second}"
    );
}

/// Runs a chat of `message` (tools approved) whose model the `server` scripts; returns the body
/// of the last model request (the one after the tool call).
async fn turn_after_the_call(cli: &Cli, server: &ScriptedServer, message: &str) -> Value {
    let out = cli
        .chat_with(server, "openai", &["--approve", message])
        .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    server.model_requests().last().unwrap().body.clone()
}

/// The text of the tool message in an OpenAI request body.
fn tool_result(body: &Value) -> String {
    let messages = body["messages"].as_array().unwrap();
    let tool = messages.iter().find(|m| m["role"] == "tool").unwrap();
    tool["content"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tool_of_a_server_that_failed_to_start_names_the_server_and_its_failure() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call("mcp__broken__lookup", json!({})));
    server.push(Reply::text("The server is broken."));
    let cli = Cli::new();
    std::fs::write(
        cli.home.path().join("config.toml"),
        "[[mcp_servers]]\nname = \"broken\"\ncommand = \"/nonexistent/hearth-mcp-server\"\n",
    )
    .unwrap();
    let body = turn_after_the_call(&cli, &server, "look it up").await;
    let result = tool_result(&body);
    assert!(result.contains("unavailable"), "{result}");
    assert!(
        result.contains("MCP server `broken`")
            && result.contains("cannot start `/nonexistent/hearth-mcp-server`"),
        "{result}"
    );
    assert!(!result.contains("no tool named"), "{result}");
    let (value, ok) = call(&cli, "mcp__broken__lookup", "{}", &["--approve"]).await;
    assert!(!ok && value["error"]["kind"] == "unavailable", "{value}");
}

#[tokio::test(flavor = "multi_thread")]
async fn mcp_add_list_tools_import_and_remove() {
    let cli = Cli::new();
    let js = everything_js();
    let out = cli
        .run(&["mcp", "add", "everything", "--", "node", &js, "stdio"])
        .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = cli.run(&["mcp", "list", "--json"]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list[0]["name"], "everything");
    assert_eq!(list[0]["state"], "ready", "{list}");
    assert!(list[0]["tools"].as_u64().unwrap() >= 10, "{list}");
    let out = cli.run(&["mcp", "tools", "everything", "--json"]).await;
    let tools: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        tools
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "mcp__everything__echo"),
        "{tools}"
    );

    let file = cli.home.path().join("claude_desktop_config.json");
    std::fs::write(
        &file,
        r#"{"mcpServers": {"gone": {"command": "/nonexistent/server", "args": []},
                           "web": {"url": "http://127.0.0.1:9/mcp", "headers": {"X-Team": "a"}}}}"#,
    )
    .unwrap();
    let out = cli.run(&["mcp", "import", file.to_str().unwrap()]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = cli.run(&["mcp", "list"]).await;
    let listed = text(&out.stdout);
    assert!(
        listed.contains("gone\tstdio\tfailed: cannot start `/nonexistent/server`"),
        "{listed}"
    );
    assert!(listed.contains("web\thttp\tfailed:"), "{listed}");
    let out = cli.run(&["mcp", "import", file.to_str().unwrap()]).await;
    assert_one_line_error(&out, "MCP server `gone` is configured twice").await;

    let out = cli.run(&["mcp", "remove", "gone"]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let config = std::fs::read_to_string(cli.home.path().join("config.toml")).unwrap();
    assert!(
        !config.contains("gone") && config.contains("X-Team"),
        "{config}"
    );
    let out = cli.run(&["mcp", "add", "x"]).await;
    assert_one_line_error(&out, "give `--url URL` or `-- COMMAND").await;
    let out = cli.run(&["mcp", "login", "everything"]).await;
    assert_one_line_error(&out, "is a program, not a URL server").await;
    let out = cli.run(&["mcp", "logout", "nobody"]).await;
    assert_one_line_error(&out, "no MCP server named `nobody`").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn mcp_resources_read_and_prompts() {
    let cli = Cli::new();
    configure(&cli, "");
    let out = cli.run(&["mcp", "resources", "everything", "--json"]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listing: Value = serde_json::from_slice(&out.stdout).unwrap();
    let uri = listing["resources"][0]["uri"].as_str().unwrap().to_string();
    assert!(
        listing["templates"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["uri_template"] == "demo://resource/dynamic/text/{resourceId}"),
        "{listing}"
    );
    let plain = cli.run(&["mcp", "resources", "everything"]).await;
    assert!(
        text(&plain.stdout).contains(&uri),
        "{}",
        text(&plain.stdout)
    );

    let read = cli
        .run(&[
            "mcp",
            "read",
            "everything",
            "demo://resource/dynamic/text/5",
        ])
        .await;
    assert!(read.status.success(), "{}", text(&read.stderr));
    assert!(text(&read.stdout).contains("5"), "{}", text(&read.stdout));
    let blob = cli
        .run(&[
            "mcp",
            "read",
            "everything",
            "demo://resource/dynamic/blob/2",
        ])
        .await;
    assert!(
        text(&blob.stdout).contains("saved to"),
        "{}",
        text(&blob.stdout)
    );
    let missing = cli.run(&["mcp", "read", "nowhere", "demo://x"]).await;
    assert!(!missing.status.success());
    assert!(text(&missing.stderr).contains("no MCP server named `nowhere`"));

    let prompts = cli.run(&["mcp", "prompts", "everything"]).await;
    assert!(prompts.status.success(), "{}", text(&prompts.stderr));
    assert!(
        text(&prompts.stdout).contains("/everything:args-prompt city [state]"),
        "{}",
        text(&prompts.stdout)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_elicitation_without_a_terminal_is_declined() {
    let cli = Cli::new();
    configure(&cli, "");
    let (value, ok) = call(
        &cli,
        "mcp__everything__trigger-elicitation-request",
        "{}",
        &["--approve"],
    )
    .await;
    assert!(ok, "{value}");
    assert!(
        value["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("User declined"),
        "{value}"
    );
    let log = std::fs::read_to_string(cli.home.path().join("logs/mcp/everything.log")).unwrap();
    assert!(
        log.contains("hearth: elicitation declined: nobody can answer here"),
        "{log}"
    );
}
