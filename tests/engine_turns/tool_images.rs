//! A tool's attached image reaches the next model request as an image in each provider's wire
//! format (never as base64 in the result text), and stays in the history for later requests.

use crate::engine_turns::rig::*;
use async_trait::async_trait;
use base64::Engine as _;
use hearth_llm::ProviderKind;
use hearth_policy::ToolFacts;
use hearth_tools::{BoundCall, CallFacts, CallFuture, DynTool, ToolContext, ToolError};
use serde_json::Value;

/// A 1×1 red PNG.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x08, 0xd7, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
    0x00, 0x03, 0x01, 0x01, 0x00, 0x18, 0xdd, 0x8d, 0xb0, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

/// `snap`: saves [`PNG`] under the data dir and attaches it, as a screenshot tool does.
struct Snap;

fn snap(ctx: &ToolContext) -> CallFuture<'_> {
    Box::pin(async move {
        let path = ctx.data_dir.join("snap.png");
        std::fs::write(&path, PNG).unwrap();
        let path = path.display().to_string();
        ctx.attach_image("image/png", PNG, &path)?;
        Ok::<Value, ToolError>(json!({"saved": path}))
    })
}

#[async_trait]
impl DynTool for Snap {
    fn name(&self) -> &str {
        "snap"
    }

    fn description(&self) -> &str {
        "Takes a picture."
    }

    fn facts(&self) -> ToolFacts {
        ToolFacts {
            name: "snap".into(),
            capabilities: Vec::new(),
            high_risk: false,
            mutates: false,
        }
    }

    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }

    async fn prepare(self: Arc<Self>, _args: Value) -> Result<(CallFacts, BoundCall), ToolError> {
        Ok((CallFacts::read_only(), Box::new(snap)))
    }
}

/// Runs "take a picture" (a `snap` call, then a text answer) against `kind`; returns the rig,
/// the session and the body of the request that followed the call.
async fn turn(server: &ScriptedServer, kind: ProviderKind) -> (Rig, String, Value) {
    server.push(Reply::tool_call("snap", json!({})));
    server.push(Reply::text("A red dot."));
    let mut registry = builtin_registry(Dialect::Hearth);
    registry.register_dyn(Arc::new(Snap)).unwrap();
    let rig = rig_with(server, kind, registry, |_| {});
    let session = rig.session();
    let summary = rig
        .send(&session, "take a picture", CancellationToken::new())
        .await;
    assert_eq!(summary.end, TurnEnd::Completed);
    let body = server.model_requests()[1].body.clone();
    (rig, session, body)
}

fn data() -> String {
    base64::engine::general_purpose::STANDARD.encode(PNG)
}

/// The stored tool result keeps the image (named by its file) beside text that names the path.
fn assert_stored(rig: &Rig, session: &str) -> String {
    let messages = rig.store.list_messages(session).unwrap();
    let result = messages[2].tool_result.as_ref().unwrap();
    let ContentPart::Image {
        mime_type,
        data: stored,
        name: Some(name),
    } = &result.images[0]
    else {
        panic!("no image stored: {result:?}");
    };
    assert_eq!(
        (mime_type.as_str(), stored.as_str()),
        ("image/png", data().as_str())
    );
    assert!(name.ends_with("snap.png"), "{name}");
    assert!(result.content.contains("snap.png"), "{}", result.content);
    assert!(!result.content.contains(&data()));
    name.clone()
}

#[tokio::test]
async fn openai_gets_the_image_in_a_user_message_after_the_tool_results() {
    let server = ScriptedServer::start().await;
    let (rig, session, body) = turn(&server, ProviderKind::Openai).await;
    let path = assert_stored(&rig, &session);
    let messages = body["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["system", "user", "assistant", "tool", "user"]);
    let tool = messages[3]["content"].as_str().unwrap();
    assert!(
        tool.contains("snap.png") && !tool.contains(&data()),
        "{tool}"
    );
    let images = messages[4]["content"].as_array().unwrap();
    assert!(images[1]["text"].as_str().unwrap().ends_with(&path));
    assert_eq!(
        images[2]["image_url"]["url"],
        format!("data:image/png;base64,{}", data())
    );

    // The history keeps it: the next turn's request still carries the image.
    server.push(Reply::text("Still red."));
    rig.send(&session, "and now?", CancellationToken::new())
        .await;
    let next = &server.model_requests()[2].body;
    assert_eq!(next["messages"][4], messages[4]);
}

#[tokio::test]
async fn anthropic_gets_image_blocks_inside_the_tool_result() {
    let server = ScriptedServer::start().await;
    let (rig, session, body) = turn(&server, ProviderKind::Anthropic).await;
    assert_stored(&rig, &session);
    let result = &body["messages"][2]["content"][0];
    assert_eq!(result["type"], "tool_result");
    let blocks = result["content"].as_array().unwrap();
    assert_eq!(blocks[0]["type"], "text");
    let text = blocks[0]["text"].as_str().unwrap();
    assert!(
        text.contains("snap.png") && !text.contains(&data()),
        "{text}"
    );
    assert_eq!(
        blocks[1],
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data()}})
    );
}

#[tokio::test]
async fn gemini_gets_inline_data_beside_the_function_response() {
    let server = ScriptedServer::start().await;
    let (rig, session, body) = turn(&server, ProviderKind::Gemini).await;
    assert_stored(&rig, &session);
    let contents = body["contents"].as_array().unwrap();
    let parts = contents.last().unwrap()["parts"].as_array().unwrap();
    let response = &parts[0]["functionResponse"];
    assert_eq!(response["name"], "snap");
    assert!(response["response"]["saved"]
        .as_str()
        .unwrap()
        .ends_with("snap.png"));
    assert_eq!(
        parts[1],
        json!({"inlineData": {"mimeType": "image/png", "data": data()}})
    );
}

#[tokio::test]
async fn ollama_gets_the_image_on_the_tool_message() {
    let server = ScriptedServer::start().await;
    let (rig, session, body) = turn(&server, ProviderKind::Ollama).await;
    assert_stored(&rig, &session);
    let tool = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .unwrap();
    let content = tool["content"].as_str().unwrap();
    assert!(
        content.contains("snap.png") && !content.contains(&data()),
        "{content}"
    );
    assert_eq!(tool["images"], json!([data()]));
}
