//! Real-format streamed responses of each provider: text, then two tool calls whose arguments
//! are fragmented, usage and the end of the response; plus model listings.

use hearth_llm::{ModelInfo, ProviderKind};

pub const TEXT: &str = "Hello wörld 🌍";
pub const CALLS: [(&str, &str); 2] = [
    ("read_file", r#"{"path":"a.txt"}"#),
    ("list_dir", r#"{"dir":"."}"#),
];
pub const INPUT_TOKENS: u64 = 11;
pub const OUTPUT_TOKENS: u64 = 22;

/// Everything a scenario needs to know about one provider.
pub struct Fixture {
    pub kind: ProviderKind,
    /// Appended to the server address to form the configured base URL.
    pub base_path: &'static str,
    pub stream_target: &'static str,
    pub content_type: &'static str,
    /// The framed records of a complete response.
    pub records: Vec<String>,
    /// A framed record that is not valid JSON.
    pub malformed: String,
    /// Whether the provider names its tool calls (otherwise ids are generated).
    pub names_calls: bool,
    /// The header carrying the key, and its expected value for key `KEY`.
    pub auth_header: (&'static str, &'static str),
    pub models_target: &'static str,
    pub models_body: &'static str,
    pub models: Vec<ModelInfo>,
}

impl Fixture {
    pub fn payload(&self) -> Vec<u8> {
        self.records.concat().into_bytes()
    }

    /// The first half of the response: no end-of-response event.
    pub fn truncated(&self) -> Vec<u8> {
        self.records[..self.records.len() / 2].concat().into_bytes()
    }

    /// The first two records, then a malformed one, then the rest.
    pub fn with_malformed(&self) -> Vec<u8> {
        let mut records = self.records.clone();
        records.insert(2, self.malformed.clone());
        records.concat().into_bytes()
    }
}

fn model(id: &str, context_window: Option<u64>) -> ModelInfo {
    ModelInfo {
        id: id.into(),
        context_window,
    }
}

fn sse(data: &str) -> String {
    format!("data: {data}\n\n")
}

pub fn openai() -> Fixture {
    let chunk = |delta: &str| {
        sse(&format!(
            r#"{{"id":"c1","object":"chat.completion.chunk","choices":[{{"index":0,"delta":{delta},"finish_reason":null}}]}}"#
        ))
    };
    let call = |fragment: &str| chunk(&format!(r#"{{"tool_calls":[{fragment}]}}"#));
    let records = vec![
        chunk(r#"{"role":"assistant","content":""}"#),
        ": OPENROUTER PROCESSING\n\n".to_string(),
        chunk(r#"{"content":"Hello wörld"}"#),
        chunk(r#"{"content":" 🌍"}"#),
        call(
            r#"{"index":0,"id":"call_a","type":"function","function":{"name":"read_file","arguments":""}}"#,
        ),
        call(r#"{"index":0,"function":{"arguments":"{\"pa"}}"#),
        call(
            r#"{"index":1,"id":"call_b","type":"function","function":{"name":"list_dir","arguments":"{\"dir\""}}"#,
        ),
        call(r#"{"index":0,"function":{"arguments":"th\":\"a.txt\"}"}}"#),
        call(r#"{"index":1,"function":{"arguments":":\".\"}"}}"#),
        sse(r#"{"id":"c1","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#),
        sse(
            r#"{"id":"c1","choices":[],"usage":{"prompt_tokens":11,"completion_tokens":22,"total_tokens":33}}"#,
        ),
        sse("[DONE]"),
    ];
    Fixture {
        kind: ProviderKind::Openai,
        base_path: "/v1",
        stream_target: "/v1/chat/completions",
        content_type: "text/event-stream",
        records,
        malformed: sse(r#"{"choices":[{"index":0,"delta":{"content":"x"}"#),
        names_calls: true,
        auth_header: ("authorization", "Bearer KEY"),
        models_target: "/v1/models",
        models_body: r#"{"object":"list","data":[{"id":"gpt-test","object":"model"},{"id":"big","context_length":128000}]}"#,
        models: vec![model("gpt-test", None), model("big", Some(128_000))],
    }
}

pub fn anthropic() -> Fixture {
    let event = |name: &str, data: &str| format!("event: {name}\r\ndata: {data}\r\n\r\n");
    let delta = |index: u32, json: &str| {
        event(
            "content_block_delta",
            &format!(
                r#"{{"type":"content_block_delta","index":{index},"delta":{{"type":"input_json_delta","partial_json":{json}}}}}"#
            ),
        )
    };
    let records = vec![
        event(
            "message_start",
            r#"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-test","usage":{"input_tokens":11,"output_tokens":1}}}"#,
        ),
        event(
            "content_block_start",
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
        ),
        event("ping", r#"{"type": "ping"}"#),
        event(
            "content_block_delta",
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello wörld 🌍"}}"#,
        ),
        event(
            "content_block_stop",
            r#"{"type":"content_block_stop","index":0}"#,
        ),
        event(
            "content_block_start",
            r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_a","name":"read_file","input":{}}}"#,
        ),
        delta(1, r#""{\"pa""#),
        delta(1, r#""th\":\"a.txt\"}""#),
        event(
            "content_block_stop",
            r#"{"type":"content_block_stop","index":1}"#,
        ),
        event(
            "content_block_start",
            r#"{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_b","name":"list_dir","input":{}}}"#,
        ),
        delta(2, r#""{\"dir\":""#),
        delta(2, r#""\".\"}""#),
        event(
            "content_block_stop",
            r#"{"type":"content_block_stop","index":2}"#,
        ),
        event(
            "message_delta",
            r#"{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":22}}"#,
        ),
        event("message_stop", r#"{"type":"message_stop"}"#),
    ];
    Fixture {
        kind: ProviderKind::Anthropic,
        base_path: "",
        stream_target: "/v1/messages",
        content_type: "text/event-stream; charset=utf-8",
        records,
        malformed: event(
            "content_block_delta",
            r#"{"type":"content_block_delta","index":0,"#,
        ),
        names_calls: true,
        auth_header: ("x-api-key", "KEY"),
        models_target: "/v1/models?limit=1000",
        models_body: r#"{"data":[{"type":"model","id":"claude-test","display_name":"Claude Test","created_at":"2025-01-01T00:00:00Z"}],"has_more":false,"first_id":"claude-test","last_id":"claude-test"}"#,
        models: vec![model("claude-test", None)],
    }
}

pub fn ollama() -> Fixture {
    let line = |message: &str| {
        format!("{{\"model\":\"llama3\",\"created_at\":\"2025-01-01T00:00:00Z\",\"message\":{message},\"done\":false}}\n")
    };
    let records = vec![
        line(r#"{"role":"assistant","content":"Hello "}"#),
        line(r#"{"role":"assistant","content":"wörld 🌍"}"#),
        line(r#"{"role":"assistant","content":"","tool_calls":[{"function":{"name":"read_file","arguments":{"path":"a.txt"}}}]}"#),
        line(r#"{"role":"assistant","content":"","tool_calls":[{"function":{"index":1,"name":"list_dir","arguments":{"dir":"."}}}]}"#),
        "{\"model\":\"llama3\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"stop\",\"total_duration\":5,\"prompt_eval_count\":11,\"eval_count\":22}\n".to_string(),
    ];
    Fixture {
        kind: ProviderKind::Ollama,
        base_path: "",
        stream_target: "/api/chat",
        content_type: "application/x-ndjson",
        records,
        malformed: "{\"model\":\"llama3\",\"message\":{\"content\":\n".to_string(),
        names_calls: false,
        auth_header: ("authorization", "Bearer KEY"),
        models_target: "/api/tags",
        models_body: r#"{"models":[{"name":"llama3:latest","model":"llama3:latest","size":4661224676,"details":{"family":"llama"}}]}"#,
        models: vec![model("llama3:latest", None)],
    }
}

pub fn gemini() -> Fixture {
    let data = |json: &str| format!("data: {json}\r\n\r\n");
    let records = vec![
        data(
            r#"{"candidates":[{"content":{"parts":[{"text":"Hello "}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":11,"totalTokenCount":11},"modelVersion":"gemini-test"}"#,
        ),
        data(
            r#"{"candidates":[{"content":{"parts":[{"text":"wörld 🌍"}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":11,"candidatesTokenCount":5}}"#,
        ),
        data(
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"read_file","args":{"path":"a.txt"}}}],"role":"model"},"index":0}]}"#,
        ),
        data(
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"list_dir","args":{"dir":"."}}}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":11,"candidatesTokenCount":22,"totalTokenCount":33}}"#,
        ),
    ];
    Fixture {
        kind: ProviderKind::Gemini,
        base_path: "/v1beta",
        stream_target: "/v1beta/models/test-model:streamGenerateContent?alt=sse",
        content_type: "text/event-stream",
        records,
        malformed: data(r#"{"candidates":[{"content":"#),
        names_calls: false,
        auth_header: ("x-goog-api-key", "KEY"),
        models_target: "/v1beta/models?pageSize=1000",
        models_body: r#"{"models":[{"name":"models/gemini-test","inputTokenLimit":1048576,"supportedGenerationMethods":["generateContent","countTokens"]},{"name":"models/embedding-001","supportedGenerationMethods":["embedContent"]}]}"#,
        models: vec![model("gemini-test", Some(1_048_576))],
    }
}
