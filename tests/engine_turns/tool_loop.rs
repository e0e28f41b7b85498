//! A tool loop end to end: events and stored rows, concurrent read-only calls, the iteration limit.

use crate::engine_turns::rig::*;

#[tokio::test]
async fn a_tool_loop_emits_events_and_stores_every_step() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "calculator",
        json!({"action": "sum", "values": [1, 2, 3]}),
    ));
    server.push(Reply::text("Six."));
    let rig = rig(&server, |_| {});
    let session = rig.session();
    let summary = rig
        .send(&session, "add 1 2 3", CancellationToken::new())
        .await;
    assert_eq!(summary.end, TurnEnd::Completed);
    assert_eq!(summary.iterations, 2);

    let kinds: Vec<&'static str> = rig
        .events
        .lock()
        .unwrap()
        .iter()
        .map(|e| match e {
            EngineEvent::TurnStarted { .. } => "turn_started",
            EngineEvent::AssistantStarted { .. } => "assistant_started",
            EngineEvent::TextDelta { .. } => "delta",
            EngineEvent::AssistantFinished { .. } => "assistant_finished",
            EngineEvent::ToolCallStarted { .. } => "tool_started",
            EngineEvent::ToolCallFinished { .. } => "tool_finished",
            EngineEvent::TurnFinished { .. } => "turn_finished",
            _ => "other",
        })
        .filter(|k| *k != "delta")
        .collect();
    assert_eq!(
        kinds,
        [
            "turn_started",
            "assistant_started",
            "assistant_finished",
            "tool_started",
            "tool_finished",
            "assistant_started",
            "assistant_finished",
            "turn_finished"
        ]
    );
    let messages = rig.store.list_messages(&session).unwrap();
    assert_eq!(messages.len(), 4);
    assert_eq!(messages[2].role, Role::Tool);
    let result = messages[2].tool_result.as_ref().unwrap();
    assert!(!result.is_error);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&result.content).unwrap()["result"],
        json!(6)
    );
    assert_eq!(messages[3].text(), "Six.");
    // The model saw the calculator tool and the system prompt.
    let first = &server.requests()[0].body;
    assert!(first.to_string().contains("calculator"));
    assert!(first["messages"][0]["content"]
        .as_str()
        .unwrap()
        .contains("Workspace folder"));
    // The second request carries the whole history so far, in order.
    let requests = server.requests();
    let roles: Vec<&str> = requests[1].body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["system", "user", "assistant", "tool"]);
}

#[tokio::test]
async fn several_read_only_calls_in_one_response_all_run() {
    let server = ScriptedServer::start().await;
    server.push(
        Reply::tool_call(
            "calculator",
            json!({"action": "evaluate", "expression": "2+2"}),
        )
        .and_tool_call("calculator", json!({"action": "max", "values": [3, 9, 4]}))
        .and_tool_call("get_device_info", json!({"fields": ["version"]})),
    );
    server.push(Reply::text("done"));
    let rig = rig(&server, |_| {});
    let session = rig.session();
    rig.send(&session, "go", CancellationToken::new()).await;
    let results: Vec<_> = rig
        .store
        .list_messages(&session)
        .unwrap()
        .into_iter()
        .filter_map(|m| m.tool_result)
        .collect();
    assert_eq!(results.len(), 3);
    assert!(results.iter().all(|r| !r.is_error), "{results:?}");
    assert_eq!(results[0].call_id, "call_1");
    assert_eq!(results[2].call_id, "call_3");
    let second = server.requests()[1].body.to_string();
    assert!(second.contains("call_1") && second.contains("call_2") && second.contains("call_3"));
}

#[tokio::test]
async fn the_iteration_limit_stops_an_endless_tool_loop() {
    let server = ScriptedServer::start().await;
    for _ in 0..3 {
        server.push(Reply::tool_call(
            "calculator",
            json!({"action": "sum", "values": [1]}),
        ));
    }
    let rig = rig(&server, |o| o.max_iterations = 3);
    let session = rig.session();
    let summary = rig.send(&session, "loop", CancellationToken::new()).await;
    assert_eq!(summary.end, TurnEnd::MaxIterations);
    assert_eq!(summary.iterations, 3);
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn each_profile_offers_the_model_exactly_its_tools() {
    let registry = builtin_registry(Dialect::Hearth);
    let mut offered = Vec::new();
    for profile in hearth_policy::ToolProfile::ALL {
        let server = ScriptedServer::start().await;
        server.push(Reply::text("Hello."));
        let rig = rig(&server, |o| o.tool_profile = profile);
        let session = rig.session();
        rig.send(&session, "hi", CancellationToken::new()).await;
        let body = &server.requests()[0].body;
        let sent: Vec<String> = body["tools"]
            .as_array()
            .map(|tools| {
                tools
                    .iter()
                    .map(|t| t["function"]["name"].as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default();
        let exposed: Vec<String> = registry
            .specs(profile)
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(sent, exposed, "{profile:?}");
        offered.push(sent.len());
    }
    // The profiles widen from minimal to full, so they cannot all be served the same list.
    assert!(offered.windows(2).all(|w| w[0] <= w[1]), "{offered:?}");
    assert!(offered[0] < offered[3], "{offered:?}");
}
