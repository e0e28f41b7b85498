//! What the model sees: compaction of a long history, memories and the skill catalogue in the
//! system prompt; the context windows servers report for their models.

use crate::rig::*;

#[tokio::test]
async fn a_history_too_long_for_the_window_is_compacted_into_a_summary() {
    let server = ScriptedServer::start().await;
    let rig = rig(&server, |o| o.context_window = 3_000);
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
    let shows = server
        .requests()
        .into_iter()
        .filter(|r| r.path == "/api/show")
        .count();
    assert_eq!(shows, 2, "one /api/show per Ollama model");
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
