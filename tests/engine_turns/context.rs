//! What the model sees: compaction of a long history, memories and the skill catalogue in the
//! system prompt; the context windows servers report for their models.

use crate::engine_turns::rig::*;

#[tokio::test]
async fn a_history_too_long_for_the_window_is_compacted_into_a_summary() {
    let server = ScriptedServer::start().await;
    // 3,000 tokens beyond the tool schemas (see `compaction::long_session`).
    let rig = rig(&server, |o| o.context_window = schema_tokens() + 3_000);
    let session = rig.session();
    let filler = "lorem ipsum dolor sit amet ".repeat(40);
    for i in 0..6 {
        // Two replies per turn: a compaction consumes one for its summary.
        server.push(Reply::text(&format!("reply {i} {filler}")));
        server.push(Reply::text(&format!("summary or reply {i} {filler}")));
        rig.send(
            &session,
            &format!("question {i} {filler}"),
            CancellationToken::new(),
        )
        .await;
    }
    let compacted = rig
        .events
        .lock()
        .unwrap()
        .iter()
        .any(|e| matches!(e, EngineEvent::Compacted { .. }));
    assert!(compacted, "no compaction happened");
    let last = server.requests().last().unwrap().body.to_string();
    assert!(
        last.contains("Summary of the earlier part"),
        "the summary was not sent: {last}"
    );
    let messages = rig.store.list_messages(&session).unwrap();
    let summary = messages
        .iter()
        .find(|m| m.kind == MessageKind::Summary)
        .expect("a stored summary");
    assert!(summary.summary_through.is_some());
    // The timeline keeps the summary too.
    let recalled = rig
        .store
        .search_summaries("reply", Some(&session), None, None, 10)
        .unwrap();
    assert!(
        !recalled.is_empty(),
        "the compaction summary is not in the timeline"
    );
    // The originals are kept.
    assert!(messages.iter().any(|m| m.text().starts_with("question 0")));
}

#[tokio::test]
async fn pinned_and_relevant_memories_reach_the_system_prompt() {
    use hearth_store::{MemorySource, NewMemory};
    let server = ScriptedServer::start().await;
    server.push(Reply::text("noted"));
    let rig = rig(&server, |_| {});
    let pinned = NewMemory {
        pinned: Some(true),
        ..NewMemory::new("The user's name is Mei.", MemorySource::UserStated)
    };
    rig.store.add_memory(&pinned).unwrap();
    rig.store
        .add_memory(&NewMemory::new(
            "The user prefers green tea over coffee.",
            MemorySource::UserStated,
        ))
        .unwrap();
    rig.store
        .add_memory(&NewMemory::new(
            "The build server runs Debian.",
            MemorySource::ModelInferred,
        ))
        .unwrap();
    let session = rig.session();
    rig.send(&session, "what tea should I buy?", CancellationToken::new())
        .await;
    let system = server.requests()[0].body["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(system.contains("The user's name is Mei."), "{system}");
    assert!(system.contains("green tea"), "{system}");
    assert!(
        !system.contains("Debian"),
        "an unrelated memory entered the prompt: {system}"
    );
}

#[tokio::test]
async fn models_come_with_the_context_window_their_server_reports() {
    let server = ScriptedServer::start().await;
    for (kind, base_url) in [
        (ProviderKind::Openai, server.openai_base()),
        (ProviderKind::Ollama, server.ollama_base()),
    ] {
        let client = build_client(ProviderConfig {
            kind,
            provider_id: "scripted".into(),
            base_url,
            api_key: None,
            retry: RetryPolicy::default(),
            connect_timeout: Duration::from_secs(5),
        })
        .unwrap();
        let models = client.list_models().await.unwrap();
        assert_eq!(models.len(), 2, "{kind:?}");
        for model in models {
            assert_eq!(
                model.context_window,
                Some(hearth_tests::model_server::CONTEXT_WINDOW),
                "{kind:?} {}",
                model.id
            );
        }
    }
    let asked = |path: &str| {
        server
            .requests()
            .into_iter()
            .filter(|r| r.path == path)
            .count()
    };
    assert_eq!(asked("/api/show"), 2, "one /api/show per Ollama model");
    assert_eq!(
        asked("/props"),
        1,
        "llama.cpp's configured context is asked once"
    );
}

#[tokio::test]
async fn llama_cpp_without_props_falls_back_to_the_trained_context() {
    let options = hearth_tests::model_server::ServerOptions {
        without_props: true,
        ..Default::default()
    };
    let server = ScriptedServer::start_with(options).await.unwrap();
    let client = build_client(ProviderConfig {
        kind: ProviderKind::Openai,
        provider_id: "scripted".into(),
        base_url: server.openai_base(),
        api_key: None,
        retry: RetryPolicy::default(),
        connect_timeout: Duration::from_secs(5),
    })
    .unwrap();
    let models = client.list_models().await.unwrap();
    assert!(models
        .iter()
        .all(|m| m.context_window == Some(hearth_tests::model_server::TRAINED_CONTEXT)));
}

#[tokio::test]
async fn installed_skills_are_catalogued_in_the_system_prompt_and_absent_ones_cost_nothing() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("none yet"));
    server.push(Reply::text("there is one"));
    let rig = rig(&server, |_| {});
    let session = rig.session();
    rig.send(
        &session,
        "which skills do you have?",
        CancellationToken::new(),
    )
    .await;
    let skills = rig.engine.options().data_dir.skills().join("notes");
    std::fs::create_dir_all(&skills).unwrap();
    std::fs::write(
        skills.join("SKILL.md"),
        "---\nname: notes\ndescription: Keeps meeting notes tidy.\n---\nWrite notes.\n",
    )
    .unwrap();
    rig.send(&session, "and now?", CancellationToken::new())
        .await;
    let system = |n: usize| {
        server.requests()[n].body["messages"][0]["content"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(!system(0).contains("Skills ("), "{}", system(0));
    assert!(
        system(1).contains("\n- notes: Keeps meeting notes tidy."),
        "{}",
        system(1)
    );
    assert!(
        !system(1).contains("Write notes."),
        "only the catalogue, not the body"
    );
}

#[tokio::test]
async fn a_message_that_cannot_fit_alone_is_refused_before_the_model_is_called_and_kept() {
    let server = ScriptedServer::start().await;
    let window = schema_tokens() + 8_192;
    let rig = rig(&server, |o| o.context_window = window);
    let session = rig.session();
    // About 14,000 tokens: more than the window holds beside the tools, however much of the
    // history compaction folded.
    let long = "a long pasted document line\n".repeat(2_000);
    let error = rig.send_err(&session, &long).await;
    let EngineError::MessageTooLong {
        tokens,
        window: said,
    } = error
    else {
        panic!("not refused as too long: {error}");
    };
    assert_eq!(said, window);
    assert!(tokens > window, "{tokens}");
    assert!(server.model_requests().is_empty(), "the model was called");
    // The message is kept (Retry, or a larger window, answers it later); nothing else is.
    let stored = rig.store.list_messages(&session).unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].text(), long);
    let failed = rig.events.lock().unwrap().iter().find_map(|e| match e {
        EngineEvent::TurnFailed { error, .. } => Some(error.clone()),
        _ => None,
    });
    assert_eq!(
        failed,
        Some(hearth_protocol::AppError::MessageTooLong { tokens, window })
    );
}

#[tokio::test]
async fn a_session_with_its_own_model_is_measured_against_that_models_window() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("the default model has room"));
    let rig = rig(&server, |o| {
        o.context_window = 1_000_000;
        o.model_windows
            .insert("small-model".into(), schema_tokens() + 8_192);
    });
    let long = "a long pasted document line\n".repeat(2_000);
    let roomy = rig.session();
    rig.send(&roomy, &long, CancellationToken::new()).await;
    assert_eq!(server.model_requests().len(), 1);

    let small = rig.session();
    rig.store
        .set_session_model(&small, Some("small-model"))
        .unwrap();
    let error = rig.send_err(&small, &long).await;
    let EngineError::MessageTooLong { window, .. } = error else {
        panic!("not refused as too long for small-model: {error}");
    };
    assert_eq!(window, schema_tokens() + 8_192);
    assert_eq!(
        server.model_requests().len(),
        1,
        "small-model was not called"
    );
}
