//! Side-by-side speed of Hearth's local provider and llama-cpp-python's server on one GGUF:
//! prompt processing and generation tokens/s over the same chat (same template, greedy, same
//! threads and context), and the time to first token of a follow-up in a 20-message chat with
//! and without the prefix cache.
//!
//! `cargo run --release -p hearth-model-worker --example local_bench -- MODEL.gguf SERVER_URL THREADS
//! CONTEXT RUNS` with the server started as `python -m llama_cpp.server --model MODEL.gguf
//! --n_threads THREADS --n_ctx CONTEXT --port PORT`.
// Tests talk to their servers with plain reqwest clients: `hearth_net::http::client_builder` is
// for the product's own clients (see clippy.toml).
#![allow(clippy::disallowed_methods)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use hearth_llm::{ChatMessage, ChatRequest, ModelClient, StreamEvent, ToolChoice};
use hearth_local::LocalModels;
use hearth_protocol::{LocalSettings, Role};
use serde_json::{json, Value};

const SYSTEM: &str = "You are a helpful assistant.";
const MAX_TOKENS: u32 = 128;

/// A long question (about 450 tokens) made distinct per run, so no cache helps either side.
fn question(run: usize) -> String {
    let context = "The lighthouse keeper kept a log of every ship, every storm and every \
                   change in the light. "
        .repeat(20);
    format!("Run {run}. {context}\nWrite a long story about the keeper's most difficult night.")
}

struct Timing {
    prompt_tokens: u64,
    first: Duration,
    generated: u64,
    total: Duration,
}

impl Timing {
    fn prompt_rate(&self) -> f64 {
        self.prompt_tokens as f64 / self.first.as_secs_f64()
    }
    fn generation_rate(&self) -> f64 {
        (self.generated.saturating_sub(1)) as f64 / (self.total - self.first).as_secs_f64()
    }
}

fn request(model: &str, messages: Vec<ChatMessage>) -> ChatRequest {
    ChatRequest {
        model: model.into(),
        system: SYSTEM.into(),
        messages,
        tools: Arc::from(Vec::new()),
        max_tokens: Some(MAX_TOKENS),
        temperature: Some(0.0),
        tool_choice: ToolChoice::Auto,
    }
}

async fn hearth(models: &LocalModels, model: &str, messages: Vec<ChatMessage>) -> (Timing, String) {
    let started = Instant::now();
    let mut stream = models.stream(&request(model, messages)).await.unwrap();
    let (mut first, mut text, mut usage) = (None, String::new(), None);
    while let Some(event) = stream.next().await {
        match event.unwrap() {
            StreamEvent::TextDelta(piece) => {
                first.get_or_insert_with(|| started.elapsed());
                text.push_str(&piece);
            }
            StreamEvent::Usage(u) => usage = Some(u),
            _ => {}
        }
    }
    let usage = usage.unwrap();
    let timing = Timing {
        prompt_tokens: usage.input_tokens,
        first: first.unwrap(),
        generated: usage.output_tokens,
        total: started.elapsed(),
    };
    (timing, text)
}

async fn python(url: &str, messages: &[ChatMessage], prompt_tokens: u64) -> Timing {
    let mut body_messages = vec![json!({"role": "system", "content": SYSTEM})];
    for m in messages {
        let role = if m.role == Role::User {
            "user"
        } else {
            "assistant"
        };
        body_messages
            .push(json!({"role": role, "content": hearth_llm::text_without_media(&m.content)}));
    }
    let body = json!({"messages": body_messages, "max_tokens": MAX_TOKENS, "temperature": 0.0, "stream": true});
    let started = Instant::now();
    let response = reqwest::Client::new()
        .post(format!("{url}/v1/chat/completions"))
        .json(&body)
        .send()
        .await
        .unwrap();
    let mut stream = response.bytes_stream();
    let (mut first, mut chunks, mut buffer) = (None, 0u64, String::new());
    while let Some(bytes) = stream.next().await {
        buffer.push_str(&String::from_utf8_lossy(&bytes.unwrap()));
        while let Some(end) = buffer.find("\n\n") {
            let event: String = buffer.drain(..end + 2).collect();
            let Some(data) = event.trim().strip_prefix("data: ") else {
                continue;
            };
            let Ok(value) = serde_json::from_str::<Value>(data) else {
                continue;
            };
            if value["choices"][0]["delta"]["content"]
                .as_str()
                .is_some_and(|c| !c.is_empty())
            {
                first.get_or_insert_with(|| started.elapsed());
                chunks += 1;
            }
        }
    }
    Timing {
        prompt_tokens,
        first: first.unwrap(),
        generated: chunks,
        total: started.elapsed(),
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[tokio::main]
async fn main() {
    hearth_model_worker::serve_worker_if_asked();
    let args: Vec<String> = std::env::args().collect();
    let (model, url) = (
        PathBuf::from(&args[1]),
        args[2].trim_end_matches('/').to_string(),
    );
    let threads: u32 = args[3].parse().unwrap();
    let context: u32 = args[4].parse().unwrap();
    let runs: usize = args[5].parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let models = LocalModels::new(dir.path().to_path_buf(), std::env::current_exe().unwrap());
    models.configure(&LocalSettings {
        idle_minutes: 60,
        threads,
        context_length: context,
    });
    let name = models.catalog().import(&model, true).await.unwrap().name;
    let chat = |messages: Vec<ChatMessage>| hearth(&models, &name, messages);
    // Warm both up (the model loaded, the page cache filled).
    let warm = vec![ChatMessage::user("Hi")];
    chat(warm.clone()).await;
    python(&url, &warm, 0).await;

    let (mut hp, mut hg, mut pp, mut pg) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for run in 0..runs {
        let messages = vec![ChatMessage::user(question(run))];
        let (ours, _) = chat(messages.clone()).await;
        let theirs = python(&url, &messages, ours.prompt_tokens).await;
        println!(
            "run {run}: hearth {:.0} pp t/s {:.1} gen t/s ({} + {} tokens) | llama-cpp-python {:.0} pp t/s {:.1} gen t/s ({} tokens)",
            ours.prompt_rate(), ours.generation_rate(), ours.prompt_tokens, ours.generated,
            theirs.prompt_rate(), theirs.generation_rate(), theirs.generated
        );
        hp.push(ours.prompt_rate());
        hg.push(ours.generation_rate());
        pp.push(theirs.prompt_rate());
        pg.push(theirs.generation_rate());
    }
    let (hp, hg, pp, pg) = (median(hp), median(hg), median(pp), median(pg));
    println!(
        "median: prompt hearth {hp:.0} t/s vs {pp:.0} t/s ({:.2}x); generation hearth {hg:.1} t/s vs {pg:.1} t/s ({:.2}x)",
        hp / pp,
        hg / pg
    );

    // A 20-message chat: the follow-up's first token with the prefix kept, and the same
    // request when nothing is kept (another chat was answered in between).
    let mut history = Vec::new();
    for turn in 0..10 {
        history.push(ChatMessage::user(format!(
            "Turn {turn}: tell me one fact about lighthouses."
        )));
        let (_, answer) = chat(history.clone()).await;
        history.push(ChatMessage::assistant(answer, Vec::new()));
    }
    let mut follow_up = history.clone();
    follow_up.push(ChatMessage::user(
        "Which of these facts is the most surprising?",
    ));
    let (cached, _) = chat(follow_up.clone()).await;
    chat(vec![ChatMessage::user("Something else entirely.")]).await;
    let (cold, _) = chat(follow_up).await;
    println!(
        "20-message chat follow-up ({} prompt tokens): first token {:.0} ms with the prefix cache, {:.0} ms without ({:.2}x)",
        cached.prompt_tokens,
        cached.first.as_secs_f64() * 1000.0,
        cold.first.as_secs_f64() * 1000.0,
        cached.first.as_secs_f64() / cold.first.as_secs_f64()
    );
    let rss = models
        .loaded()
        .await
        .and_then(|(_, pid)| std::fs::read_to_string(format!("/proc/{pid}/status")).ok())
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS"))
                .map(str::to_string)
        });
    println!("worker {}", rss.unwrap_or_default());
}
