//! Personas through `agents_list` and `agents_route`: the persona's prompt, model and tool
//! profile answer, and an unknown persona is not found.

use hearth_protocol::AgentPersona;

use super::*;

#[tokio::test]
async fn agents_route_answers_with_the_personas_prompt_and_model() {
    let server = ScriptedServer::start().await;
    server.push(
        Reply::tool_call("agents_list", json!({}))
            .and_tool_call(
                "agents_route",
                json!({"agent": "critic", "message": "route-msg: review"}),
            )
            .and_tool_call("agents_route", json!({"agent": "nobody", "message": "hi"})),
    );
    server.push(Reply::text("the critic answered"));
    server.push_for("route-msg", Reply::text("looks fine"));
    let settings = Settings {
        agents: vec![AgentPersona {
            name: "critic".into(),
            description: "Reviews drafts".into(),
            system_prompt: "You are the critic persona Q7.".into(),
            model: "critic-model".into(),
            tool_profile: Some(hearth_protocol::ToolProfile::Minimal),
        }],
        ..Settings::default()
    };
    let rig = agent_rig(&server, Dialect::Hearth, settings);
    let session = rig.session();
    rig.send(&session, "ask the critic", CancellationToken::new())
        .await;
    let results = rig.results(&session);
    assert_eq!(results[0]["agents"][0]["name"], "critic");
    assert_eq!(results[1]["status"], "completed");
    assert_eq!(results[1]["result"], "looks fine");
    assert_eq!(results[1]["agent"], "critic");
    assert_eq!(results[2]["error"]["kind"], "not_found");
    assert!(results[2]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("critic"));
    let child = &requests_of(&server, "route-msg")[0];
    assert_eq!(child["model"], "critic-model");
    let system = child["messages"][0]["content"].to_string();
    assert!(
        system.contains("You are the critic persona Q7."),
        "{system}"
    );
    let names = tool_names(child);
    assert!(names.contains(&"read_file".to_string()));
    assert!(
        !names.contains(&"write_file".to_string()),
        "minimal profile: {names:?}"
    );
}
