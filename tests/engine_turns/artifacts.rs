//! The artifact pipeline through agent turns, the model taking its `artifact_id` from the tool
//! result: create, one chunk per turn (with a retry), validate, finalize, deliver into the chat,
//! which then holds the artifact card; no request to the model ever carries the artifact's path.

use crate::engine_turns::rig::*;

fn tools(store: &Arc<Store>) -> Registry {
    let mut registry = builtin_registry(Dialect::Hearth);
    hearth_tools::register_artifacts(
        &mut registry,
        store.clone(),
        Arc::new(hearth_engine::Channels::new(store.clone())),
        hearth_protocol::ArtifactSettings::default(),
    )
    .unwrap();
    registry
}

/// The last tool result of the session, as JSON.
fn last_result(rig: &Rig, session: &str) -> serde_json::Value {
    let messages = rig.store.list_messages(session).unwrap();
    let result = messages
        .iter()
        .rev()
        .find_map(|m| m.tool_result.clone())
        .unwrap();
    serde_json::from_str(&result.content).unwrap()
}

#[tokio::test]
async fn a_model_builds_and_delivers_an_artifact_over_several_turns() {
    let server = ScriptedServer::start().await;
    let home = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open(&home.path().join("hearth.db")).unwrap());
    let rig = rig_on(&server, store.clone(), home, tools(&store));
    let session = rig.session();

    server.push(Reply::tool_call(
        "artifact_create",
        json!({"filename": "report.md", "title": "Q3"}),
    ));
    server.push(Reply::text("Created."));
    rig.send(&session, "write the Q3 report", CancellationToken::new())
        .await;
    let created = last_result(&rig, &session);
    let id = created["artifact_id"].as_str().unwrap().to_string();

    let chunks = ["# Q3 报告\n\n收入增长。\n", "\nRevenue grew.\n"];
    for (sequence, chunk) in chunks.iter().enumerate() {
        server.push(Reply::tool_call(
            "artifact_append",
            json!({"artifact_id": id, "sequence": sequence, "content": chunk}),
        ));
        server.push(Reply::text("Appended."));
        rig.send(&session, "next chunk", CancellationToken::new())
            .await;
        assert_eq!(last_result(&rig, &session)["status"], "appended");
    }
    // A retry of the last chunk (a lost reply) changes nothing.
    server.push(Reply::tool_call(
        "artifact_append",
        json!({"artifact_id": id, "sequence": 1, "content": chunks[1]}),
    ));
    server.push(
        Reply::tool_call("artifact_validate", json!({"artifact_id": id}))
            .and_tool_call("artifact_finalize", json!({"artifact_id": id})),
    );
    server.push(Reply::tool_call(
        "artifact_deliver",
        json!({"artifact_id": id, "caption": "The Q3 report"}),
    ));
    server.push(Reply::text("Delivered."));
    let summary = rig
        .send(&session, "finish it", CancellationToken::new())
        .await;
    assert_eq!(summary.end, TurnEnd::Completed);
    let delivered = last_result(&rig, &session);
    assert_eq!(delivered["mode"], "file", "{delivered}");

    let artifact = store.get_artifact(&id).unwrap().unwrap();
    assert_eq!((artifact.chunks, artifact.state.as_str()), (2, "final"));
    let card = store
        .list_messages(&session)
        .unwrap()
        .into_iter()
        .find(|m| {
            m.content.contains(&ContentPart::Artifact {
                id: id.clone(),
                name: "report.md".into(),
                size: artifact.bytes,
            })
        })
        .expect("the chat holds the artifact card");
    // What later requests show the model of it: the caption and the artifact, never a path.
    assert_eq!(
        card.text(),
        format!("The Q3 report\n[artifact {id}: report.md]")
    );

    let requests = server.model_requests();
    let bodies: Vec<String> = requests.iter().map(|r| r.body.to_string()).collect();
    assert!(
        bodies.iter().any(|b| b.contains("already_appended")),
        "the retry's answer reached the model"
    );
    assert!(
        bodies.iter().any(|b| b.contains("\\\"valid\\\":true")),
        "{}",
        bodies.last().unwrap()
    );
    // (The system prompt names the workspace; the artifacts' folder is never shown.)
    let artifacts = format!("{}/artifacts", rig.home_path());
    assert!(
        bodies.iter().all(|b| !b.contains(&artifacts)),
        "a request carried the artifacts' path"
    );
}
