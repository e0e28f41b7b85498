//! server-everything over stdio and streamable HTTP, server-filesystem and mcp-server-time:
//! discovery, text, image (attached as an image part) and structured results, progress, errors,
//! and a server's refusal of a path outside its folder.

use super::*;
use base64::Engine as _;
use serde_json::json;
use tokio::io::AsyncBufReadExt;

#[tokio::test(flavor = "multi_thread")]
async fn everything_over_stdio_text_image_structured_and_progress() {
    let mut server = everything("everything");
    server.call_timeout_secs = 2;
    let rig = Rig::start(&[server]).await;
    let status = rig.status("everything");
    assert_eq!(status.state, State::Ready, "{status:?}");
    assert!(status.protocol_version.is_some(), "{status:?}");
    let tools = rig.manager.tool_infos();
    let echo = tools
        .iter()
        .find(|t| t.name == "mcp__everything__echo")
        .unwrap();
    assert!(echo.read_only && !echo.unasked, "{echo:?}");
    assert!(
        tools.iter().any(|t| t.name == "mcp__everything__get-sum"),
        "{tools:?}"
    );

    let echoed = rig
        .call("mcp__everything__echo", json!({"message": "hello hearth"}))
        .await
        .unwrap();
    assert_eq!(echoed["server"], "everything");
    assert!(text(&echoed).contains("hello hearth"), "{echoed}");

    let ctx = rig.ctx();
    let image = rig
        .manager
        .call("mcp__everything__get-tiny-image", json!({}), &ctx)
        .await
        .unwrap();
    let part = image["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["type"] == "image")
        .unwrap();
    assert_eq!(part["mime_type"], "image/png");
    let bytes = std::fs::read(part["path"].as_str().unwrap()).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    // The model sees the image itself, attached to the result, named by the saved file.
    let attached = ctx.images.take();
    let [hearth_protocol::ContentPart::Image {
        mime_type,
        data,
        name,
    }] = attached.as_slice()
    else {
        panic!("one image attached: {attached:?}");
    };
    assert_eq!(mime_type, "image/png");
    assert_eq!(name.as_deref(), part["path"].as_str());
    assert_eq!(
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .unwrap(),
        bytes
    );
    assert!(
        !image.to_string().contains(data.as_str()),
        "no base64 in the text"
    );

    let structured = rig
        .call(
            "mcp__everything__get-structured-content",
            json!({"location": "New York"}),
        )
        .await
        .unwrap();
    assert!(structured["structured"].is_object(), "{structured}");

    // 4 s with progress every second passes a 2 s call timeout: progress resets it.
    let long = rig
        .call(
            "mcp__everything__trigger-long-running-operation",
            json!({"duration": 4, "steps": 4}),
        )
        .await
        .unwrap();
    assert!(text(&long).contains("completed"), "{long}");
    rig.manager.shutdown().await;
    assert_eq!(rig.state("everything"), State::Stopped);
}

/// server-everything in its own `streamableHttp` mode on a free port, ready when it says so.
async fn everything_http() -> (tokio::process::Child, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = tokio::process::Command::new("node")
        .args([everything_js(), "streamableHttp".into()])
        .env("PORT", port.to_string())
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    while let Some(line) = lines.next_line().await.unwrap() {
        if line.contains("listening on port") {
            break;
        }
    }
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, format!("http://127.0.0.1:{port}/mcp"))
}

#[tokio::test(flavor = "multi_thread")]
async fn everything_over_streamable_http_with_custom_headers() {
    let (_child, url) = everything_http().await;
    let mut server = McpServerSettings::http("web", &url);
    server.headers.insert("X-Hearth-Test".into(), "1".into());
    let rig = Rig::start(&[server]).await;
    assert_eq!(rig.state("web"), State::Ready, "{:?}", rig.status("web"));
    assert_eq!(rig.status("web").transport, "http");
    let sum = rig
        .call("mcp__web__get-sum", json!({"a": 2, "b": 40}))
        .await
        .unwrap();
    assert!(text(&sum).contains("42"), "{sum}");
}

#[tokio::test(flavor = "multi_thread")]
async fn mcp_server_time_from_pypi() {
    let rig = Rig::start(&[time_server()]).await;
    assert_eq!(rig.state("time"), State::Ready, "{:?}", rig.status("time"));
    let now = rig
        .call(
            "mcp__time__get_current_time",
            json!({"timezone": "Asia/Shanghai"}),
        )
        .await
        .unwrap();
    assert!(text(&now).contains("Asia/Shanghai"), "{now}");
    let bad = rig
        .call(
            "mcp__time__get_current_time",
            json!({"timezone": "Mars/Olympus"}),
        )
        .await
        .unwrap_err();
    assert!(bad.message.contains("Mars/Olympus"), "{bad:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn too_many_schemas_for_the_context_window_get_tool_search_instead() {
    use hearth_core::ToolSource;
    use hearth_policy::ToolProfile;
    use hearth_tools::{Dialect, Registry};
    let rig = Rig::start(&[everything("everything")]).await;
    let tokens = hearth_mcp::schema_tokens(&rig.manager.tool_infos());
    assert!(tokens > 500, "{tokens}");

    // server-everything offers resources: the two resource tools are listed either way.
    let roomy = rig.manager.tools(tokens * 100);
    assert!(roomy.deferred.is_empty() && roomy.listed.len() == rig.manager.tool_infos().len() + 2);

    let tight = rig.manager.tools(tokens * 10);
    assert_eq!(tight.listed.len(), 3);
    let mut registry = Registry::new(Dialect::Hearth);
    for tool in tight.listed {
        registry.register_dyn(tool).unwrap();
    }
    for tool in tight.deferred {
        registry.register_deferred(tool).unwrap();
    }
    let listed: Vec<String> = registry
        .specs(ToolProfile::Full)
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(
        listed,
        ["mcp_resource_read", "mcp_resources", "tool_search"]
    );
    let found = registry
        .dispatch(
            "tool_search",
            r#"{"query": "sum of two numbers", "limit": 3}"#,
            &rig.ctx(),
        )
        .await
        .unwrap();
    assert_eq!(
        found["tools"][0]["name"], "mcp__everything__get-sum",
        "{found}"
    );
    assert!(
        found["tools"][0]["parameters"]["properties"]["a"].is_object(),
        "{found}"
    );
    let sum = registry
        .dispatch(
            "mcp__everything__get-sum",
            r#"{"a": 1, "b": 2}"#,
            &rig.ctx(),
        )
        .await
        .unwrap();
    assert!(
        text(&sum).contains("is 3"),
        "a deferred tool stays callable: {sum}"
    );
}

/// server-filesystem's entry point.
pub(crate) fn filesystem_js() -> String {
    installed(
        target()
            .join("mcp-node/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn filesystem_reads_writes_and_refuses_paths_outside_its_folder() {
    let allowed = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(allowed.path().join("notes.txt"), "filesystem-notes-81f3").unwrap();
    std::fs::write(outside.path().join("secret.txt"), "not for the model").unwrap();
    let server = McpServerSettings::stdio(
        "fs",
        "node",
        &[filesystem_js(), allowed.path().display().to_string()],
    );
    let rig = Rig::start(&[server]).await;
    assert_eq!(rig.state("fs"), State::Ready, "{:?}", rig.status("fs"));
    let tools = rig.manager.tool_infos();
    let read = tools
        .iter()
        .find(|t| t.name == "mcp__fs__read_text_file")
        .unwrap();
    assert!(read.read_only, "annotated read-only: {read:?}");
    let write = tools
        .iter()
        .find(|t| t.name == "mcp__fs__write_file")
        .unwrap();
    assert!(!write.read_only);

    let path = |dir: &tempfile::TempDir, name: &str| dir.path().join(name).display().to_string();
    let listed = rig
        .call(
            "mcp__fs__list_directory",
            json!({"path": allowed.path().display().to_string()}),
        )
        .await
        .unwrap();
    assert!(text(&listed).contains("notes.txt"), "{listed}");
    let read = rig
        .call(
            "mcp__fs__read_text_file",
            json!({"path": path(&allowed, "notes.txt")}),
        )
        .await
        .unwrap();
    assert!(text(&read).contains("filesystem-notes-81f3"), "{read}");
    rig.call(
        "mcp__fs__write_file",
        json!({"path": path(&allowed, "new.txt"), "content": "written-through-mcp"}),
    )
    .await
    .unwrap();
    assert_eq!(
        std::fs::read_to_string(allowed.path().join("new.txt")).unwrap(),
        "written-through-mcp"
    );

    // Outside the server's folder: its refusal is a tool error, and nothing leaks.
    let refused = rig
        .call(
            "mcp__fs__read_text_file",
            json!({"path": path(&outside, "secret.txt")}),
        )
        .await
        .unwrap_err();
    assert_eq!(refused.kind, hearth_tools::ErrorKind::Failed, "{refused:?}");
    assert!(
        refused.message.contains("Access denied"),
        "{}",
        refused.message
    );
    assert!(!refused.message.contains("not for the model"));
    // Malformed arguments are refused by the server with its reason.
    let malformed = rig
        .call("mcp__fs__read_text_file", json!({"path": 42}))
        .await
        .unwrap_err();
    assert!(!malformed.message.is_empty(), "{malformed:?}");
    rig.manager.shutdown().await;
}
