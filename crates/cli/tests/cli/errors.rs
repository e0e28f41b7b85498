//! Bad input gives one-line, actionable errors.

use super::*;

#[tokio::test(flavor = "multi_thread")]
async fn bad_input_gives_one_line_actionable_errors() {
    let cli = Cli::new();
    let out = cli
        .run(&["--provider", "nope", "--model", "m", "chat", "hi"])
        .await;
    assert_one_line_error(&out, "--provider: unknown provider kind `nope` (expected one of: openai, anthropic, ollama, gemini, local)").await;

    let out = cli
        .run(&[
            "--provider",
            "openai",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--model",
            "m",
            "chat",
            "hi",
        ])
        .await;
    assert_one_line_error(&out, "could not reach the provider").await;

    let out = cli
        .run(&[
            "--provider",
            "openai",
            "--base-url",
            "ftp://x",
            "--model",
            "m",
            "chat",
            "hi",
        ])
        .await;
    assert_one_line_error(&out, "must start with http").await;

    let out = cli.run(&["chat", "hi"]).await;
    assert_one_line_error(&out, "no model provider is configured").await;
    assert_one_line_error(&out, "--provider openai|anthropic|ollama|gemini").await;

    let out = cli.run(&["sessions", "show", "cli:missing"]).await;
    assert_one_line_error(&out, "unknown session 'cli:missing'").await;

    let server = ScriptedServer::start().await;
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
            "cli:missing",
            "hi",
        ])
        .await;
    assert_one_line_error(&out, "unknown session 'cli:missing'").await;

    server.push(Reply::status(
        401,
        r#"{"error":{"message":"Incorrect API key provided"}}"#,
    ));
    let out = cli.chat(&server, "openai", "hi").await;
    assert_one_line_error(&out, "authentication failed").await;
    assert_eq!(server.requests().len(), 1, "a 401 must not be retried");

    let out = cli
        .command()
        .env_remove("HEARTH_API_KEY")
        .args([
            "--provider",
            "openai",
            "--base-url",
            &base,
            "--model",
            "m",
            "--api-key-env",
            "HEARTH_TEST_UNSET_VAR",
            "chat",
            "hi",
        ])
        .output()
        .await
        .unwrap();
    assert_one_line_error(&out, "HEARTH_TEST_UNSET_VAR is not set").await;
}
