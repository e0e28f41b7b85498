//! Self-test of the scripted model server: each wire format, the journal and every fault,
//! checked over real HTTP with a plain client and our own SSE/NDJSON decoding.

#[path = "support/selftest/faults.rs"]
mod faults;
#[path = "support/selftest/formats.rs"]
mod formats;
#[path = "support/selftest/process.rs"]
mod process;

use std::collections::BTreeMap;

use bytes::Bytes;
use hearth_tests::decode::{parse_sse, SseEvent};
use hearth_tests::model_server::MODELS;
use hearth_tests::{Reply, ScriptedServer};
use serde_json::{json, Value};

/// A response read to its end (or to the transport error that cut it).
pub struct Streamed {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub chunks: Vec<Bytes>,
    pub error: Option<reqwest::Error>,
}

impl Streamed {
    pub fn text(&self) -> String {
        String::from_utf8(self.chunks.concat()).expect("body is UTF-8 once reassembled")
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(|v| v.to_str().unwrap())
    }
}

pub async fn send(request: reqwest::RequestBuilder) -> Streamed {
    let mut response = request.send().await.expect("request sent");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let mut chunks = Vec::new();
    let error = loop {
        match response.chunk().await {
            Ok(Some(chunk)) => chunks.push(chunk),
            Ok(None) => break None,
            Err(e) => break Some(e),
        }
    };
    Streamed {
        status,
        headers,
        chunks,
        error,
    }
}

pub fn openai_request(server: &ScriptedServer, stream: bool) -> reqwest::RequestBuilder {
    let body = json!({
        "model": "scripted-small",
        "stream": stream,
        "stream_options": {"include_usage": true},
        "messages": [{"role": "user", "content": "héllo"}],
    });
    reqwest::Client::new()
        .post(format!("{}/chat/completions", server.openai_base()))
        .bearer_auth("sk-test")
        .json(&body)
}

pub fn anthropic_request(server: &ScriptedServer) -> reqwest::RequestBuilder {
    let body = json!({"model": "scripted-large", "max_tokens": 64, "stream": true,
        "messages": [{"role": "user", "content": "hi"}]});
    reqwest::Client::new()
        .post(format!("{}/v1/messages", server.anthropic_base()))
        .header("x-api-key", "ant-test")
        .header("anthropic-version", "2023-06-01")
        .json(&body)
}

pub fn ollama_request(server: &ScriptedServer) -> reqwest::RequestBuilder {
    let body = json!({"model": "scripted-small", "messages": [{"role": "user", "content": "hi"}]});
    reqwest::Client::new()
        .post(format!("{}/api/chat", server.ollama_base()))
        .json(&body)
}

pub fn gemini_request(server: &ScriptedServer, action: &str) -> reqwest::RequestBuilder {
    let body = json!({"contents": [{"role": "user", "parts": [{"text": "hi"}]}]});
    reqwest::Client::new()
        .post(format!(
            "{}/models/scripted-small:{action}",
            server.gemini_base()
        ))
        .header("x-goog-api-key", "g-test")
        .json(&body)
}

pub const TEXT: &str = "Hello, wörld! Ünïcode ✓ arrives in small pieces.";

pub fn two_calls() -> Reply {
    Reply::tool_call("read_file", json!({"path": "notes/ä.txt", "limit": 20}))
        .and_tool_call("list_dir", json!({"path": "."}))
        .with_text("Let me look.")
}

/// Every event's data parses as JSON (the OpenAI `[DONE]` sentinel aside).
pub fn json_events(events: &[SseEvent]) -> Vec<Value> {
    events
        .iter()
        .filter(|e| e.data != "[DONE]")
        .map(|e| e.json().expect("event data is JSON"))
        .collect()
}

/// The body left the server in pieces, some of which split a UTF-8 character.
pub fn assert_split(streamed: &Streamed) {
    assert!(
        streamed.chunks.len() > 3,
        "only {} chunks",
        streamed.chunks.len()
    );
    assert!(
        streamed
            .chunks
            .iter()
            .any(|c| std::str::from_utf8(c).is_err()),
        "no chunk boundary fell inside a multi-byte character"
    );
}

#[tokio::test]
async fn openai_streams_text_and_usage() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text(TEXT).with_usage(7, 3));
    let streamed = send(openai_request(&server, true)).await;
    assert_eq!(streamed.status, 200);
    assert_eq!(streamed.header("content-type"), Some("text/event-stream"));
    assert_split(&streamed);
    let events = parse_sse(&streamed.text());
    assert_eq!(events.last().unwrap().data, "[DONE]");
    let chunks = json_events(&events);
    assert!(chunks
        .iter()
        .all(|c| c["object"] == "chat.completion.chunk"));
    let deltas: Vec<&str> = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
        .collect();
    assert_eq!(deltas.concat(), TEXT);
    assert!(deltas.iter().all(|d| d.chars().count() <= 5) && deltas.len() >= 10);
    let finish: Vec<&Value> = chunks
        .iter()
        .map(|c| &c["choices"][0]["finish_reason"])
        .filter(|f| !f.is_null())
        .collect();
    assert_eq!(finish, [&json!("stop")]);
    let usage = &chunks.last().unwrap()["usage"];
    assert_eq!(usage["prompt_tokens"], 7);
    assert_eq!(usage["completion_tokens"], 3);
    assert_eq!(chunks.last().unwrap()["choices"], json!([]));
}

#[tokio::test]
async fn at_once_sends_the_same_events_in_one_piece() {
    let server = ScriptedServer::start().await;
    server.push(two_calls());
    server.push(two_calls().at_once());
    let split = send(openai_request(&server, true)).await;
    let whole = send(openai_request(&server, true)).await;
    assert_split(&split);
    assert_eq!(whole.chunks.len(), 1, "one write for the whole stream");
    let without_ids = |s: &Streamed| -> Vec<Value> {
        let mut events = json_events(&parse_sse(&s.text()));
        for e in &mut events {
            e["id"] = Value::Null;
            let calls = e.pointer_mut("/choices/0/delta/tool_calls");
            if let Some(calls) = calls.and_then(Value::as_array_mut) {
                calls.iter_mut().for_each(|c| c["id"] = Value::Null);
            }
        }
        events
    };
    assert_eq!(without_ids(&whole), without_ids(&split));
}

#[tokio::test]
async fn openai_streams_two_tool_calls_with_fresh_ids() {
    let server = ScriptedServer::start().await;
    server.push(two_calls());
    server.push(Reply::tool_call("again", json!({})));
    let events = parse_sse(&send(openai_request(&server, true)).await.text());
    let chunks = json_events(&events);
    let mut calls: BTreeMap<u64, (String, String, String)> = BTreeMap::new();
    let mut text = String::new();
    for chunk in &chunks {
        let delta = &chunk["choices"][0]["delta"];
        text.push_str(delta["content"].as_str().unwrap_or_default());
        for part in delta["tool_calls"].as_array().into_iter().flatten() {
            let entry = calls.entry(part["index"].as_u64().unwrap()).or_default();
            if let Some(id) = part["id"].as_str() {
                assert_eq!(part["type"], "function");
                entry.0 = id.to_string();
                entry.1 = part["function"]["name"].as_str().unwrap().to_string();
            }
            entry
                .2
                .push_str(part["function"]["arguments"].as_str().unwrap());
        }
    }
    assert_eq!(text, "Let me look.");
    let calls: Vec<_> = calls.into_values().collect();
    assert_eq!(calls[0].0, "call_1");
    assert_eq!(calls[0].1, "read_file");
    assert_eq!(
        serde_json::from_str::<Value>(&calls[0].2).unwrap(),
        json!({"path": "notes/ä.txt", "limit": 20})
    );
    assert_eq!(
        (calls[1].0.as_str(), calls[1].1.as_str()),
        ("call_2", "list_dir")
    );
    assert_eq!(
        serde_json::from_str::<Value>(&calls[1].2).unwrap(),
        json!({"path": "."})
    );
    let fragments = chunks
        .iter()
        .filter(|c| c["choices"][0]["delta"]["tool_calls"][0]["index"] == 0)
        .count();
    assert!(
        fragments >= 4,
        "arguments of the first call came in {fragments} pieces"
    );
    assert!(chunks
        .iter()
        .any(|c| c["choices"][0]["finish_reason"] == "tool_calls"));
    let second = json_events(&parse_sse(
        &send(openai_request(&server, true)).await.text(),
    ));
    assert!(second
        .iter()
        .any(|c| c["choices"][0]["delta"]["tool_calls"][0]["id"] == "call_3"));
}

#[tokio::test]
async fn openai_answers_one_document_when_not_streaming() {
    let server = ScriptedServer::start().await;
    server.push(two_calls().with_usage(4, 2));
    let streamed = send(openai_request(&server, false)).await;
    assert_eq!(streamed.header("content-type"), Some("application/json"));
    let doc: Value = serde_json::from_str(&streamed.text()).unwrap();
    assert_eq!(doc["object"], "chat.completion");
    let message = &doc["choices"][0]["message"];
    assert_eq!(message["content"], "Let me look.");
    assert_eq!(message["tool_calls"][1]["id"], "call_2");
    let args: Value = serde_json::from_str(
        message["tool_calls"][0]["function"]["arguments"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(args["limit"], 20);
    assert_eq!(doc["choices"][0]["finish_reason"], "tool_calls");
    assert_eq!(doc["usage"]["total_tokens"], 6);
}

#[tokio::test]
async fn model_listings_and_journal() {
    let server = ScriptedServer::start().await;
    let client = reqwest::Client::new();
    let openai: Value = client
        .get(format!("{}/models", server.openai_base()))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(openai["data"][0]["id"], MODELS[0]);
    assert_eq!(openai["object"], "list");
    let anthropic: Value = client
        .get(format!("{}/v1/models", server.anthropic_base()))
        .header("anthropic-version", "2023-06-01")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        (
            anthropic["data"][1]["type"].as_str(),
            anthropic["has_more"].as_bool()
        ),
        (Some("model"), Some(false))
    );
    let tags: Value = client
        .get(format!("{}/api/tags", server.ollama_base()))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(tags["models"][0]["name"], format!("{}:latest", MODELS[0]));
    let gemini: Value = client
        .get(format!("{}/models", server.gemini_base()))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(gemini["models"][1]["name"], format!("models/{}", MODELS[1]));

    server.push(Reply::text("ok"));
    send(openai_request(&server, true)).await;
    let journal = server.requests();
    assert_eq!(journal.len(), 5);
    assert_eq!(journal[1].header("Anthropic-Version"), Some("2023-06-01"));
    let call = &journal[4];
    assert_eq!(
        (call.method.as_str(), call.path.as_str()),
        ("POST", "/v1/chat/completions")
    );
    assert_eq!(call.header("authorization"), Some("Bearer sk-test"));
    assert_eq!(
        call.headers.get("content-type").map(String::as_str),
        Some("application/json")
    );
    assert_eq!(call.body["messages"][0]["content"], "héllo");
    assert_eq!(server.model_requests(), vec![call.clone()]);
    assert_eq!(server.pending(), 0);
}
