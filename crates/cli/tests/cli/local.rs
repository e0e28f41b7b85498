//! Local model servers: a provider with no key and no reachable keychain, a server that then
//! wants a key, real token counts from streamed usage (and a server refusing to send it, whose
//! counts are "not reported"), and `providers detect`.

use hearth_tests::ServerOptions;

use super::*;

/// The CLI with no key anywhere and a keychain that cannot be reached (no D-Bus session).
fn keyless(cli: &Cli) -> Command {
    let mut cmd = cli.command();
    cmd.env_remove("HEARTH_API_KEY").env(
        "DBUS_SESSION_BUS_ADDRESS",
        "unix:path=/nonexistent/hearth-test-bus",
    );
    cmd
}

async fn keyless_chat(cli: &Cli, server: &ScriptedServer, message: &str) -> Output {
    let base = server.openai_base();
    keyless(cli)
        .args([
            "--provider",
            "openai",
            "--base-url",
            &base,
            "--model",
            "local-model",
        ])
        .args(["chat", message])
        .output()
        .await
        .unwrap()
}

fn log(cli: &Cli) -> String {
    std::fs::read_to_string(cli.home.path().join("logs/hearth-cli.log")).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_local_server_without_a_key_is_asked_without_authorization() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("Hello from a local model.").with_usage(123, 45));
    let cli = Cli::new();
    let out = keyless_chat(&cli, &server, "hi").await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Hello from a local model."));
    assert!(
        text(&out.stderr).contains("[1 iteration(s), 123 input + 45 output tokens]"),
        "{}",
        text(&out.stderr)
    );
    let requests = server.model_requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(
        requests[0].header("authorization"),
        None,
        "{:?}",
        requests[0].headers
    );
    let log = log(&cli);
    assert!(
        log.contains("WARN") && log.contains("the keychain cannot be read"),
        "the unreachable keychain was not logged as a warning: {log}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_that_wants_a_key_says_where_to_put_one() {
    let server = ScriptedServer::start().await;
    server.push(Reply::status(
        401,
        r#"{"error":{"message":"Invalid API Key","type":"authentication_error"}}"#,
    ));
    let cli = Cli::new();
    let out = keyless_chat(&cli, &server, "hi").await;
    assert_one_line_error(&out, "this server wants an API key (401)").await;
    let stderr = text(&out.stderr);
    for hint in [
        "Settings → Providers",
        "`hearth-cli keys set openai`",
        "OPENAI_API_KEY",
    ] {
        assert!(stderr.contains(hint), "no '{hint}' in: {stderr}");
    }
    assert_eq!(
        server.model_requests().len(),
        1,
        "a 401 must not be retried"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn streamed_usage_gives_the_real_token_counts_of_every_iteration() {
    let server = ScriptedServer::start().await;
    server.push(
        Reply::tool_call(
            "calculator",
            json!({"action": "evaluate", "expression": "2+2"}),
        )
        .with_usage(1_200, 30),
    );
    server.push(Reply::text("It is 4.").with_usage(1_260, 7));
    let cli = Cli::new();
    let out = cli.chat(&server, "openai", "2+2?").await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("[2 iteration(s), 2460 input + 37 output tokens]"),
        "{}",
        text(&out.stderr)
    );
    assert!(server
        .model_requests()
        .iter()
        .all(|r| r.body["stream_options"]["include_usage"] == true));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_refusing_stream_options_still_answers_and_is_not_asked_for_it_again() {
    let options = ServerOptions {
        reject_stream_options: true,
        ..ServerOptions::default()
    };
    let server = ScriptedServer::start_with(options).await.unwrap();
    server.push(Reply::tool_call(
        "calculator",
        json!({"action": "evaluate", "expression": "2+2"}),
    ));
    server.push(Reply::text("It is 4."));
    let cli = Cli::new();
    let out = cli.chat(&server, "openai", "2+2?").await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("It is 4."));
    // The stream never had a usage chunk: no counts are made up.
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("[2 iteration(s), tokens not reported]"),
        "{stderr}"
    );
    assert!(!stderr.contains("0 input + 0 output"), "{stderr}");
    let asked: Vec<bool> = server
        .model_requests()
        .iter()
        .map(|r| r.body.get("stream_options").is_some())
        .collect();
    assert_eq!(asked, [true, false, false], "refused once, then never sent");
}

#[tokio::test(flavor = "multi_thread")]
async fn detect_finds_an_ollama_and_an_openai_server_and_not_a_closed_port() {
    let ollama = ScriptedServer::start().await;
    let openai = ScriptedServer::start().await;
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closed_port = closed.local_addr().unwrap().port();
    drop(closed);
    let port = |server: &ScriptedServer| server.url().rsplit(':').next().unwrap().to_string();
    let candidates = [
        format!("ollama:{}", port(&ollama)),
        format!("openai:{}", port(&openai)),
        format!("openai:{closed_port}"),
    ];
    let cli = Cli::new();
    let mut args = vec!["providers", "detect", "--json"];
    for candidate in &candidates {
        args.extend(["--candidate", candidate]);
    }
    let started = std::time::Instant::now();
    let out = keyless(&cli).args(&args).output().await.unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(started.elapsed() < Duration::from_secs(10));
    let found: Value = serde_json::from_slice(&out.stdout).unwrap();
    let found = found.as_array().unwrap();
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0]["kind"], "ollama");
    assert_eq!(found[0]["base_url"], ollama.ollama_base());
    assert_eq!(found[1]["kind"], "openai");
    assert_eq!(found[1]["base_url"], openai.openai_base());
    // Ollama names its models with their tags.
    let tagged = json!(["scripted-small:latest", "scripted-large:latest"]);
    assert_eq!(found[0]["models"], tagged);
    assert_eq!(
        found[1]["models"],
        json!(["scripted-small", "scripted-large"])
    );
    // Each was asked in its own dialect, with no key.
    assert_eq!(ollama.requests()[0].path, "/api/tags");
    assert_eq!(openai.requests()[0].path, "/v1/models");
    assert_eq!(openai.requests()[0].header("authorization"), None);

    let out = keyless(&cli)
        .args(["providers", "detect", "--candidate", &candidates[0]])
        .output()
        .await
        .unwrap();
    let stdout = text(&out.stdout);
    let address = ollama.url().trim_start_matches("http://").to_string();
    assert!(
        stdout.contains(&format!("Ollama on {address} — 2 models")),
        "{stdout}"
    );
    assert!(
        stdout.contains("--model scripted-small:latest chat"),
        "{stdout}"
    );

    let none = format!("openai:{closed_port}");
    let out = keyless(&cli)
        .args(["providers", "detect", "--candidate", &none])
        .output()
        .await
        .unwrap();
    assert_one_line_error(&out, "no model server found on 127.0.0.1").await;
}
