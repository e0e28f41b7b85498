//! The client entry point of the official MCP conformance suite
//! (`@modelcontextprotocol/conformance client --command hearth-mcp-conformance`): connects to
//! the test server (its URL is the last argument) through Hearth's own client, lists the tools
//! and calls each — with the arguments the scenario gives in `MCP_CONFORMANCE_CONTEXT`
//! (`toolCalls`), else with arguments made from its schema — then shuts down. An elicitation is
//! accepted with nothing filled in, so every field's default is sent. A server that
//! asks for an OAuth sign-in is signed in to with [`FollowRedirects`] in place of a browser
//! (the suite's authorization server redirects without a login page), tokens kept in memory;
//! a call refused for a missing scope signs in again once and is retried.
#![allow(clippy::print_stderr)]

use std::process::ExitCode;
use std::sync::Arc;

use hearth_mcp::oauth::{client_secret_account, FollowRedirects, MemorySecrets, OAuthEnv};
use hearth_mcp::{McpManager, State};
use hearth_protocol::{EngineEvent, McpServerSettings};
use hearth_tools::{Conversation, Form, FormReply, Question, Reply, ToolContext};
use serde_json::{json, Map, Value};
use tokio_util::sync::CancellationToken;

#[tokio::main]
async fn main() -> ExitCode {
    let Some(url) = std::env::args().next_back() else {
        eprintln!("usage: hearth-mcp-conformance URL");
        return ExitCode::FAILURE;
    };
    let dir = std::env::temp_dir().join(format!("hearth-mcp-conformance-{}", std::process::id()));
    let context = context();
    let mut server = McpServerSettings::http("conformance", &url);
    server.startup_timeout_secs = 20;
    // The suite's client ID metadata document address (`auth/basic-cimd`) and pre-registered
    // client (`auth/pre-registration`).
    server.oauth.client_metadata_url = Some(CLIENT_METADATA_URL.to_string());
    server.oauth.client_id = context["client_id"].as_str().map(str::to_string);
    let client_secret = context["client_secret"].as_str().map(str::to_string);
    let secret = move |account: &str| {
        (account == client_secret_account("conformance"))
            .then(|| client_secret.clone())
            .flatten()
    };
    let manager = McpManager::new(&[server], &secret, &dir);
    manager.set_oauth(OAuthEnv {
        secrets: Arc::new(MemorySecrets::default()),
        browser: Arc::new(FollowRedirects),
    });
    manager.start_background();
    manager.settled().await;
    if !signed_in_if_asked(&manager, &secret).await {
        manager.shutdown().await;
        return ExitCode::FAILURE;
    }
    let status = manager.statuses().remove(0);
    if let State::Failed { reason } = &status.state {
        eprintln!("not connected: {reason}");
        manager.shutdown().await;
        return ExitCode::FAILURE;
    }
    let ctx = ToolContext {
        workspace: dir.clone(),
        data_dir: dir.clone(),
        session_id: "conformance".into(),
        cancel: CancellationToken::new(),
        images: Default::default(),
        conversation: Some(Arc::new(TakesDefaults)),
        sandbox: Default::default(),
    };
    let tools = manager.tool_infos();
    let given = given_calls(&context);
    for tool in &tools {
        let mut arguments = arguments_for(&tool.input_schema);
        // json-schema-2020-12-preservation: echo another tool's schema exactly as received.
        if tool.tool == "json_schema_echo" {
            if let Some(other) = tools.iter().find(|t| t.tool != tool.tool) {
                arguments["schema"] = other.input_schema.clone();
            }
        }
        let calls: Vec<Value> = given
            .iter()
            .filter(|(name, _)| *name == tool.tool)
            .map(|(_, arguments)| arguments.clone())
            .collect();
        for arguments in if calls.is_empty() {
            vec![arguments]
        } else {
            calls
        } {
            let mut outcome = manager.call(&tool.name, arguments.clone(), &ctx).await;
            if outcome.is_err() && signed_in_if_asked(&manager, &secret).await {
                outcome = manager.call(&tool.name, arguments, &ctx).await;
            }
            match outcome {
                Ok(result) => eprintln!("{}: {result}", tool.name),
                Err(error) => eprintln!("{}: {error}", tool.name),
            }
        }
    }
    manager.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
    ExitCode::SUCCESS
}

/// A front end that accepts every form as it comes: the defaults are what is sent.
struct TakesDefaults;

#[async_trait::async_trait]
impl Conversation for TakesDefaults {
    fn language(&self) -> hearth_protocol::Language {
        hearth_protocol::Language::En
    }

    fn show(&self, _: EngineEvent) {}

    async fn ask(&self, _: Question) -> Reply {
        Reply::Unavailable
    }

    async fn fill(&self, _: Form) -> FormReply {
        FormReply::Accepted(Map::new())
    }
}

const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// Most sign-ins in a row (a server whose tokens are refused at once, e.g. after it moved to
/// another authorization server, asks again).
const SIGN_INS: usize = 3;

/// Signs in while the server asks for it (at most [`SIGN_INS`] times); false when a sign-in
/// failed.
async fn signed_in_if_asked(
    manager: &McpManager,
    secret: &(dyn Fn(&str) -> Option<String> + Sync),
) -> bool {
    for _ in 0..SIGN_INS {
        let asks = manager
            .statuses()
            .first()
            .is_some_and(|status| status.state == State::NeedsSignIn);
        if !asks {
            return true;
        }
        if let Err(error) = manager.sign_in("conformance", secret).await {
            eprintln!("{error}");
            return false;
        }
        manager.settled().await;
    }
    true
}

/// The scenario's `MCP_CONFORMANCE_CONTEXT`.
fn context() -> Value {
    let context = std::env::var("MCP_CONFORMANCE_CONTEXT").unwrap_or_default();
    serde_json::from_str(&context).unwrap_or_default()
}

/// The calls the scenario asks for (`toolCalls` in the context), as (tool, arguments).
fn given_calls(context: &Value) -> Vec<(String, Value)> {
    context["toolCalls"]
        .as_array()
        .map(|calls| {
            calls
                .iter()
                .filter_map(|call| {
                    Some((
                        call["name"].as_str()?.to_string(),
                        call["arguments"].clone(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Arguments that satisfy `schema`'s required properties with plain values.
fn arguments_for(schema: &Value) -> Value {
    let mut arguments = Map::new();
    let required = schema["required"].as_array().cloned().unwrap_or_default();
    for name in required.iter().filter_map(Value::as_str) {
        let property = &schema["properties"][name];
        let value = match property["type"].as_str() {
            Some("number" | "integer") => json!(1),
            Some("boolean") => json!(true),
            Some("array") => json!([]),
            Some("object") => json!({}),
            _ => json!("test"),
        };
        arguments.insert(name.to_string(), value);
    }
    Value::Object(arguments)
}
