//! One agent turn of a dialect through the engine's real tool registry (network configured with
//! one allowed local port), approving every ask once; the stored tool results come back.

use std::sync::Arc;
use std::time::Duration;

use hearth_core::DataDir;
use hearth_engine::{
    register_browser_tools, tool_registry, Approver, Browsers, Engine, EngineOptions,
    FixedApprover, OsNotifier, ToolRunner,
};
use hearth_policy::SecurityProfile;
use hearth_protocol::{ApprovalDecision, ContentPart, EngineEvent, TurnEnd};
use hearth_store::Store;
use hearth_tests::{Reply, ScriptedServer};
use hearth_tools::{Background, Dialect, NetworkConfig};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// An engine over a scripted model server and a store in `home`, with a session to talk in.
pub struct Rig {
    pub server: ScriptedServer,
    pub store: Arc<Store>,
    pub engine: Engine,
    pub session: String,
    /// The managed browser of the turn's `browser` tool (started on first use).
    pub browsers: Browsers,
    /// Keeps the background processes of the turn's tools.
    _background: Background,
}

/// How the rig's tool runner answers and judges.
pub struct Front {
    pub approver: Arc<dyn Approver>,
    pub security: SecurityProfile,
    pub question_timeout: Duration,
}

impl Default for Front {
    fn default() -> Self {
        Front {
            approver: Arc::new(FixedApprover(ApprovalDecision::AllowOnce)),
            security: SecurityProfile::PersonalCli,
            question_timeout: Duration::from_secs(600),
        }
    }
}

impl Rig {
    pub async fn open(
        home: &std::path::Path,
        dialect: Dialect,
        allowed_port: u16,
        front: Front,
    ) -> Rig {
        let server = ScriptedServer::start().await;
        let dir = DataDir::at(home.to_path_buf());
        dir.ensure().unwrap();
        let store = Arc::new(Store::open(&dir.database()).unwrap());
        let client = server.openai_client();
        let allow_local = vec![format!("127.0.0.1:{allowed_port}")];
        let network = NetworkConfig {
            allow_local: allow_local.clone(),
            ..NetworkConfig::default()
        };
        let background = Background::new();
        let mut registry =
            tool_registry(dialect, &store, Arc::new(OsNotifier), network, &background);
        let browsers = Browsers::new(dir.root());
        register_browser_tools(
            &mut registry,
            &browsers,
            &hearth_protocol::BrowserSettings::default(),
            &allow_local,
            front.security == SecurityProfile::PersonalCli,
        );
        let mut runner = ToolRunner::new(
            Arc::new(registry),
            front.approver,
            store.clone(),
            front.security,
            dir.root().to_path_buf(),
        );
        runner.question_timeout = front.question_timeout;
        let mut options = EngineOptions::new(dir, "test-model");
        options.tool_profile = hearth_policy::ToolProfile::Full;
        let engine = Engine::new(store.clone(), client, Arc::new(runner), options);
        let session = engine.create_session("test", None).await.unwrap().id;
        Rig {
            server,
            store,
            engine,
            session,
            browsers,
            _background: background,
        }
    }

    /// Scripts `calls` then a closing text, sends one message and returns the events.
    pub async fn send(&self, calls: &[(&str, Value)]) -> Vec<EngineEvent> {
        for (name, args) in calls {
            self.server.push(Reply::tool_call(name, args.clone()));
        }
        self.server.push(Reply::text("Done."));
        let events = Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = events.clone();
        let summary = self
            .engine
            .send(
                &self.session,
                vec![ContentPart::text("run it")],
                &move |event| seen.lock().unwrap().push(event),
                CancellationToken::new(),
            )
            .await
            .unwrap();
        assert_eq!(summary.end, TurnEnd::Completed);
        let events = events.lock().unwrap().clone();
        events
    }

    /// The stored tool results `(name, JSON, is_error)` in call order.
    pub fn results(&self) -> Vec<(String, Value, bool)> {
        self.store
            .list_messages(&self.session)
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
}

/// One agent turn of `dialect` making `calls` (approved once each); the stored tool results
/// `(name, JSON, is_error)` in call order.
pub async fn turn(
    home: &std::path::Path,
    dialect: Dialect,
    allowed_port: u16,
    calls: &[(&str, Value)],
) -> Vec<(String, Value, bool)> {
    let rig = Rig::open(home, dialect, allowed_port, Front::default()).await;
    rig.send(calls).await;
    rig.browsers.shutdown().await;
    rig.results()
}
