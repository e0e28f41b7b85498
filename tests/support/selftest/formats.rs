//! Self-test of the scripted server's Anthropic, Ollama and Gemini formats, streamed and not.

use hearth_tests::decode::{parse_ndjson, parse_sse};
use hearth_tests::{Reply, ScriptedServer};
use serde_json::{json, Value};

use super::{
    anthropic_request, assert_split, gemini_request, json_events, ollama_request, send, two_calls,
    TEXT,
};

#[tokio::test]
async fn anthropic_streams_text_and_tool_use_blocks() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text(TEXT).with_usage(11, 6));
    server.push(two_calls());
    let streamed = send(anthropic_request(&server)).await;
    assert_split(&streamed);
    let events = parse_sse(&streamed.text());
    let data = json_events(&events);
    for (event, data) in events.iter().zip(&data) {
        assert_eq!(
            event.event.as_deref(),
            data["type"].as_str(),
            "event name matches data type"
        );
    }
    let names: Vec<&str> = events.iter().map(|e| e.event.as_deref().unwrap()).collect();
    assert_eq!(names.first(), Some(&"message_start"));
    assert_eq!(names.last(), Some(&"message_stop"));
    assert!(names.contains(&"ping"));
    assert_eq!(data[0]["message"]["usage"]["input_tokens"], 11);
    let text: String = data
        .iter()
        .filter_map(|d| d["delta"]["text"].as_str())
        .collect();
    assert_eq!(text, TEXT);
    let end = data.iter().find(|d| d["type"] == "message_delta").unwrap();
    assert_eq!(
        (
            end["delta"]["stop_reason"].as_str(),
            end["usage"]["output_tokens"].as_u64()
        ),
        (Some("end_turn"), Some(6))
    );

    let data = json_events(&parse_sse(&send(anthropic_request(&server)).await.text()));
    let starts: Vec<&Value> = data
        .iter()
        .filter(|d| d["type"] == "content_block_start")
        .collect();
    assert_eq!(starts[0]["content_block"]["type"], "text");
    assert_eq!(
        starts[1]["content_block"],
        json!({"type": "tool_use", "id": "call_1", "name": "read_file", "input": {}})
    );
    assert_eq!(starts[2]["content_block"]["id"], "call_2");
    for (block, expected) in [
        (1, json!({"path": "notes/ä.txt", "limit": 20})),
        (2, json!({"path": "."})),
    ] {
        let json: String = data
            .iter()
            .filter(|d| d["index"] == block && d["delta"]["type"] == "input_json_delta")
            .map(|d| d["delta"]["partial_json"].as_str().unwrap())
            .collect();
        assert_eq!(serde_json::from_str::<Value>(&json).unwrap(), expected);
    }
    let stops = data
        .iter()
        .filter(|d| d["type"] == "content_block_stop")
        .count();
    assert_eq!(stops, 3);
    assert!(data.iter().any(|d| d["delta"]["stop_reason"] == "tool_use"));
}

#[tokio::test]
async fn ollama_streams_ndjson_lines() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text(TEXT).with_usage(9, 4));
    server.push(two_calls());
    let streamed = send(ollama_request(&server)).await;
    assert_eq!(
        streamed.header("content-type"),
        Some("application/x-ndjson")
    );
    assert_split(&streamed);
    let lines: Vec<Value> = parse_ndjson(&streamed.text())
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let text: String = lines
        .iter()
        .filter_map(|l| l["message"]["content"].as_str())
        .collect();
    assert_eq!(text, TEXT);
    let last = lines.last().unwrap();
    assert_eq!(
        (last["done"].as_bool(), last["done_reason"].as_str()),
        (Some(true), Some("stop"))
    );
    assert_eq!(
        (
            last["prompt_eval_count"].as_u64(),
            last["eval_count"].as_u64()
        ),
        (Some(9), Some(4))
    );
    assert!(lines[..lines.len() - 1].iter().all(|l| l["done"] == false));

    let lines: Vec<Value> = parse_ndjson(&send(ollama_request(&server)).await.text())
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let calls: Vec<&Value> = lines
        .iter()
        .filter_map(|l| l["message"]["tool_calls"].as_array())
        .flatten()
        .collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0]["function"]["name"], "read_file");
    assert_eq!(
        calls[0]["function"]["arguments"],
        json!({"path": "notes/ä.txt", "limit": 20})
    );
    assert_eq!(calls[1]["function"]["arguments"], json!({"path": "."}));
}

#[tokio::test]
async fn gemini_streams_sse_with_crlf() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text(TEXT).with_usage(8, 2));
    server.push(two_calls());
    let streamed = send(gemini_request(&server, "streamGenerateContent?alt=sse")).await;
    assert_split(&streamed);
    assert!(streamed.text().contains("}\r\n\r\ndata: "));
    let responses = json_events(&parse_sse(&streamed.text()));
    let text: String = responses
        .iter()
        .filter_map(|r| r["candidates"][0]["content"]["parts"][0]["text"].as_str())
        .collect();
    assert_eq!(text, TEXT);
    assert!(responses
        .iter()
        .all(|r| r["candidates"][0]["content"]["role"] == "model"));
    let last = responses.last().unwrap();
    assert_eq!(last["candidates"][0]["finishReason"], "STOP");
    assert_eq!(last["usageMetadata"]["promptTokenCount"], 8);
    assert_eq!(last["usageMetadata"]["candidatesTokenCount"], 2);
    let finished = responses
        .iter()
        .filter(|r| !r["candidates"][0]["finishReason"].is_null())
        .count();
    assert_eq!(finished, 1);

    let responses = json_events(&parse_sse(
        &send(gemini_request(&server, "streamGenerateContent?alt=sse"))
            .await
            .text(),
    ));
    let parts: Vec<&Value> = responses
        .iter()
        .flat_map(|r| r["candidates"][0]["content"]["parts"].as_array().unwrap())
        .collect();
    let calls: Vec<&Value> = parts.iter().filter_map(|p| p.get("functionCall")).collect();
    assert_eq!(
        calls[0],
        &json!({"name": "read_file", "args": {"path": "notes/ä.txt", "limit": 20}})
    );
    assert_eq!(
        calls[1],
        &json!({"name": "list_dir", "args": {"path": "."}})
    );
    assert_eq!(
        server.requests()[1].path,
        "/v1beta/models/scripted-small:streamGenerateContent"
    );
    assert_eq!(server.requests()[1].query.as_deref(), Some("alt=sse"));
}

#[tokio::test]
async fn non_streamed_documents_of_the_other_formats() {
    let server = ScriptedServer::start().await;
    for _ in 0..3 {
        server.push(two_calls());
    }
    let doc: Value = serde_json::from_str(
        &send(gemini_request(&server, "generateContent"))
            .await
            .text(),
    )
    .unwrap();
    let parts = &doc["candidates"][0]["content"]["parts"];
    assert_eq!(
        (
            parts[0]["text"].as_str(),
            parts[2]["functionCall"]["name"].as_str()
        ),
        (Some("Let me look."), Some("list_dir"))
    );
    let body = json!({"model": "m", "stream": false, "messages": []});
    let ollama = reqwest::Client::new()
        .post(format!("{}/api/chat", server.url()))
        .json(&body);
    let doc: Value = serde_json::from_str(&send(ollama).await.text()).unwrap();
    assert_eq!(
        (
            doc["done"].as_bool(),
            doc["message"]["tool_calls"][0]["function"]["name"].as_str()
        ),
        (Some(true), Some("read_file"))
    );
    let anthropic = reqwest::Client::new()
        .post(format!("{}/v1/messages", server.url()))
        .json(&body);
    let doc: Value = serde_json::from_str(&send(anthropic).await.text()).unwrap();
    assert_eq!(
        doc["content"][1],
        json!({"type": "tool_use", "id": "call_5", "name": "read_file", "input": {"path": "notes/ä.txt", "limit": 20}})
    );
    assert_eq!(doc["stop_reason"], "tool_use");
}

#[tokio::test]
async fn gemini_signs_first_calls_and_refuses_history_without_their_signatures() {
    let server = ScriptedServer::start().await;
    server.push(two_calls());
    server.push(Reply::text("ok"));
    let doc: Value = serde_json::from_str(
        &send(gemini_request(&server, "generateContent"))
            .await
            .text(),
    )
    .unwrap();
    let parts = doc["candidates"][0]["content"]["parts"].as_array().unwrap();
    let signed: Vec<bool> = parts
        .iter()
        .filter(|p| p.get("functionCall").is_some())
        .map(|p| p["thoughtSignature"].is_string())
        .collect();
    assert_eq!(signed, [true, false]);

    let post = |model_parts: Value| {
        let body = json!({"contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {"role": "model", "parts": model_parts},
            {"role": "user", "parts": [{"functionResponse": {"name": "read_file", "response": {}}}]},
        ]});
        reqwest::Client::new()
            .post(format!(
                "{}/models/scripted-small:generateContent",
                server.gemini_base()
            ))
            .header("x-goog-api-key", "g-test")
            .json(&body)
            .send()
    };
    let unsigned = post(json!([{"functionCall": {"name": "read_file", "args": {}}}]))
        .await
        .unwrap();
    assert_eq!(unsigned.status(), 400);
    assert!(unsigned
        .text()
        .await
        .unwrap()
        .contains("missing a thought_signature"));
    let echoed = post(Value::Array(parts.clone())).await.unwrap();
    assert_eq!(echoed.status(), 200);
}
