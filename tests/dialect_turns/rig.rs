//! One agent turn of a dialect through the engine's real tool registry (network configured with
//! one allowed local port), approving every ask once; the stored tool results come back.

use std::sync::Arc;
use std::time::Duration;

use hearth_engine::{
    register_browser_tools, tool_registry, Browsers, DataDir, Engine, EngineOptions, FixedApprover,
    OsNotifier, ToolRunner,
};
use hearth_llm::{build_client, ProviderConfig, ProviderKind, RetryPolicy};
use hearth_policy::SecurityProfile;
use hearth_protocol::{ApprovalDecision, ContentPart, TurnEnd};
use hearth_store::Store;
use hearth_tests::{Reply, ScriptedServer};
use hearth_tools::{Background, Dialect, NetworkConfig};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// One agent turn of `dialect` making `calls` (approved once each); the stored tool results
/// `(name, JSON, is_error)` in call order.
pub async fn turn(
    home: &std::path::Path,
    dialect: Dialect,
    allowed_port: u16,
    calls: &[(&str, Value)],
) -> Vec<(String, Value, bool)> {
    let server = ScriptedServer::start().await;
    for (name, args) in calls {
        server.push(Reply::tool_call(name, args.clone()));
    }
    server.push(Reply::text("Done."));
    let dir = DataDir::at(home.to_path_buf());
    dir.ensure().unwrap();
    let store = Arc::new(Store::open(&dir.database()).unwrap());
    let client = build_client(ProviderConfig {
        kind: ProviderKind::Openai,
        provider_id: "scripted".into(),
        base_url: server.openai_base(),
        api_key: Some("test".into()),
        retry: RetryPolicy::default(),
        connect_timeout: Duration::from_secs(5),
    })
    .unwrap();
    let network = NetworkConfig {
        allow_local: vec![format!("127.0.0.1:{allowed_port}")],
        ..NetworkConfig::default()
    };
    let background = Background::new();
    let mut registry = tool_registry(dialect, &store, Arc::new(OsNotifier), network, &background);
    let browsers = Browsers::new(dir.root());
    register_browser_tools(
        &mut registry,
        &browsers,
        &hearth_protocol::BrowserSettings::default(),
    );
    let runner = Arc::new(ToolRunner::new(
        Arc::new(registry),
        Arc::new(FixedApprover(ApprovalDecision::AllowOnce)),
        store.clone(),
        SecurityProfile::PersonalCli,
        dir.root().to_path_buf(),
    ));
    let mut options = EngineOptions::new(dir, "test-model");
    options.tool_profile = hearth_policy::ToolProfile::Full;
    let engine = Engine::new(store.clone(), client, runner, options);
    let session = engine.create_session("test", None).unwrap().id;
    let summary = engine
        .send(
            &session,
            vec![ContentPart::text("run it")],
            &|_| {},
            CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_eq!(summary.end, TurnEnd::Completed, "{dialect}");
    browsers.shutdown().await;
    store
        .list_messages(&session)
        .unwrap()
        .into_iter()
        .filter_map(|m| m.tool_result)
        .map(|r| {
            (
                r.name,
                serde_json::from_str(&r.content).unwrap(),
                r.is_error,
            )
        })
        .collect()
}
