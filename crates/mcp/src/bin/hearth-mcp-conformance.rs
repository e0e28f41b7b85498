//! The client entry point of the official MCP conformance suite
//! (`@modelcontextprotocol/conformance client --command hearth-mcp-conformance`): connects to
//! the test server (its URL is the last argument) through Hearth's own client, lists the tools
//! and calls each — with the arguments the scenario gives in `MCP_CONFORMANCE_CONTEXT`
//! (`toolCalls`), else with arguments made from its schema — then shuts down. An elicitation is
//! accepted with nothing filled in, so every field's default is sent.
#![allow(clippy::print_stderr)]

use std::process::ExitCode;
use std::sync::Arc;

use hearth_mcp::{McpManager, State};
use hearth_protocol::EngineEvent;
use hearth_protocol::McpServerSettings;
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
    let mut server = McpServerSettings::http("conformance", &url);
    server.startup_timeout_secs = 20;
    let manager = McpManager::start(&[server], &|_| None, &dir);
    manager.settled().await;
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
    };
    let tools = manager.tool_infos();
    let given = given_calls();
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
            match manager.call(&tool.name, arguments, &ctx).await {
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

/// The calls the scenario asks for (`toolCalls` in `MCP_CONFORMANCE_CONTEXT`), as (tool, arguments).
fn given_calls() -> Vec<(String, Value)> {
    let context = std::env::var("MCP_CONFORMANCE_CONTEXT").unwrap_or_default();
    let context: Value = serde_json::from_str(&context).unwrap_or_default();
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
