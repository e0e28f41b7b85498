//! MCP media in chat turns: an image a tool returns reaches the model as an image part, and a
//! real SDK server's audio as an `input_audio` part for a model that takes audio.

use super::*;

#[tokio::test(flavor = "multi_thread")]
async fn an_mcp_image_reaches_the_model_as_an_image_part() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "mcp__everything__get-tiny-image",
        json!({}),
    ));
    server.push(Reply::text("A tiny image."));
    let cli = Cli::new();
    configure(&cli, "");
    let body = turn_after_the_call(&cli, &server, "show me the tiny image").await;
    let messages = body["messages"].as_array().unwrap();
    let result = tool_result(&body);
    assert!(result.contains("mcp-media"), "{result}");
    assert!(!result.contains("base64"), "{result}");
    // OpenAI takes no images in tool messages: they follow in a user message, as data URLs.
    let after = messages.last().unwrap();
    assert_eq!(after["role"], "user", "{body}");
    let image = after["content"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|p| p["image_url"]["url"].as_str())
        .unwrap_or_else(|| panic!("no image part: {after}"));
    // A PNG's signature, base64-encoded.
    assert!(
        image.starts_with("data:image/png;base64,iVBORw0KGgo"),
        "{image}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_mcp_audio_clip_reaches_a_model_that_takes_audio_as_input_audio() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "mcp__speaker__speak",
        json!({"text": "hello"}),
    ));
    server.push(Reply::text("It says hello."));
    let cli = Cli::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join("../../target/mcp-python/bin/python");
    let script = root.join("tests/cli/fixtures/speaker.py");
    std::fs::write(
        cli.home.path().join("config.toml"),
        format!(
            "[[mcp_servers]]\nname = \"speaker\"\ncommand = {:?}\nargs = [{:?}]\n",
            python.display().to_string(),
            script.display().to_string()
        ),
    )
    .unwrap();
    let base = base_url(&server, "openai");
    let argv = [
        "--provider",
        "openai",
        "--base-url",
        &base,
        "--model",
        "gpt-4o-audio-preview",
        "chat",
        "--approve",
        "say hello",
    ];
    let out = cli.run(&argv).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let body = server.model_requests().last().unwrap().body.clone();
    let result = tool_result(&body);
    assert!(
        result.contains("mcp-media") && result.contains(".wav"),
        "{result}"
    );
    assert!(
        !result.contains("UklGR"),
        "no base64 in the result text: {result}"
    );
    let after = body["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(after["role"], "user", "{body}");
    let audio = after["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["type"] == "input_audio")
        .unwrap_or_else(|| panic!("no input_audio part: {after}"))
        .clone();
    assert_eq!(audio["input_audio"]["format"], "wav");
    // espeak-ng's recording: a RIFF/WAVE file, base64-encoded.
    assert!(
        audio["input_audio"]["data"]
            .as_str()
            .unwrap()
            .starts_with("UklGR"),
        "{audio}"
    );
}
