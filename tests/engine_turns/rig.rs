//! The engine under test: a data dir, store, scripted provider client and deny-all approver
//! (its imports are re-exported for the test modules).

pub use std::sync::{Arc, Mutex};
pub use std::time::{Duration, Instant};

pub use hearth_core::DataDir;
pub use hearth_engine::{Engine, EngineError, EngineOptions, FixedApprover, ToolRunner};
pub use hearth_llm::{build_client, ProviderConfig, ProviderKind, RetryPolicy};
pub use hearth_policy::SecurityProfile;
pub use hearth_protocol::{
    ApprovalDecision, ContentPart, EngineEvent, MessageKind, MessageStatus, Role, TurnEnd,
};
pub use hearth_store::Store;
pub use hearth_tests::{Reply, ScriptedServer};
pub use hearth_tools::{builtin_registry, Dialect, Registry};
pub use serde_json::json;
pub use tokio_util::sync::CancellationToken;

pub struct Rig {
    pub engine: Arc<Engine>,
    /// Builds another engine like `engine` (the app builds one per turn).
    rebuild: Box<dyn Fn() -> Engine + Send + Sync>,
    pub store: Arc<Store>,
    pub events: Arc<Mutex<Vec<EngineEvent>>>,
    _home: tempfile::TempDir,
}

pub fn rig(server: &ScriptedServer, tune: impl FnOnce(&mut EngineOptions)) -> Rig {
    rig_with(
        server,
        ProviderKind::Openai,
        builtin_registry(Dialect::Hearth),
        tune,
    )
}

/// A rig whose model speaks `kind`'s wire format and whose tools are `registry`'s.
pub fn rig_with(
    server: &ScriptedServer,
    kind: ProviderKind,
    registry: Registry,
    tune: impl FnOnce(&mut EngineOptions),
) -> Rig {
    let home = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open(&home.path().join("hearth.db")).unwrap());
    rig_on_with(server, kind, store, home, registry, tune)
}

/// A rig over `store` in `home` (its data dir) whose tools are `registry`'s, for tools that
/// need the store (artifacts).
pub fn rig_on(
    server: &ScriptedServer,
    store: Arc<Store>,
    home: tempfile::TempDir,
    registry: Registry,
) -> Rig {
    rig_on_with(server, ProviderKind::Openai, store, home, registry, |_| {})
}

fn rig_on_with(
    server: &ScriptedServer,
    kind: ProviderKind,
    store: Arc<Store>,
    home: tempfile::TempDir,
    registry: Registry,
    tune: impl FnOnce(&mut EngineOptions),
) -> Rig {
    let dir = DataDir::at(home.path().to_path_buf());
    dir.ensure().unwrap();
    let base_url = match kind {
        ProviderKind::Openai => server.openai_base(),
        ProviderKind::Anthropic => server.anthropic_base(),
        ProviderKind::Gemini => server.gemini_base(),
        ProviderKind::Ollama => server.ollama_base(),
        ProviderKind::Local => {
            panic!("a scripted server speaks HTTP; local models are tested in hearth-local")
        }
    };
    let client = build_client(ProviderConfig {
        kind,
        provider_id: "scripted".into(),
        base_url,
        api_key: Some("test".into()),
        retry: RetryPolicy {
            max_retries: 3,
            base_delay: Duration::from_millis(50),
            max_delay: Duration::from_secs(5),
        },
        connect_timeout: Duration::from_secs(5),
    })
    .unwrap();
    let runner = Arc::new(ToolRunner::new(
        Arc::new(registry),
        Arc::new(FixedApprover(ApprovalDecision::Deny)),
        store.clone(),
        SecurityProfile::PersonalCli,
        dir.root().to_path_buf(),
    ));
    let mut options = EngineOptions::new(dir, "test-model");
    tune(&mut options);
    let engine = Arc::new(Engine::new(
        store.clone(),
        client.clone(),
        runner.clone(),
        options.clone(),
    ));
    let rebuild_store = store.clone();
    let rebuild = Box::new(move || {
        Engine::new(
            rebuild_store.clone(),
            client.clone(),
            runner.clone(),
            options.clone(),
        )
    });
    Rig {
        engine,
        rebuild,
        store,
        events: Arc::new(Mutex::new(Vec::new())),
        _home: home,
    }
}

/// Roughly the tokens the rig's tool schemas take in every request (it offers every Hearth
/// tool), counted as the engine counts them: a realistic window is larger than this.
pub fn schema_tokens() -> u64 {
    let specs: Vec<hearth_llm::ToolSpec> = builtin_registry(Dialect::Hearth)
        .specs(hearth_policy::ToolProfile::Full)
        .into_iter()
        .map(|s| hearth_llm::ToolSpec {
            name: s.name,
            description: s.description,
            parameters: s.parameters,
        })
        .collect();
    hearth_engine::tools_tokens(&specs)
}

impl Rig {
    /// Another engine over the same store, model and tools.
    pub fn rebuild(&self) -> Engine {
        (self.rebuild)()
    }

    pub async fn send(
        &self,
        session: &str,
        text: &str,
        cancel: CancellationToken,
    ) -> hearth_engine::TurnSummary {
        let events = self.events.clone();
        let sink = move |e: EngineEvent| events.lock().unwrap().push(e);
        self.engine
            .send(session, vec![ContentPart::text(text)], &sink, cancel)
            .await
            .unwrap()
    }

    /// Sends `text` and returns the error the turn must end with.
    pub async fn send_err(&self, session: &str, text: &str) -> EngineError {
        let events = self.events.clone();
        let sink = move |e: EngineEvent| events.lock().unwrap().push(e);
        self.engine
            .send(
                session,
                vec![ContentPart::text(text)],
                &sink,
                CancellationToken::new(),
            )
            .await
            .unwrap_err()
    }

    /// The data dir's path, as text.
    pub fn home_path(&self) -> String {
        self._home.path().display().to_string()
    }

    pub fn session(&self) -> String {
        {
            // A sync helper of the tests: the store is called directly, as a blocking caller may.
            let new = self.engine.new_session("test", None);
            let store = self.engine.db().blocking();
            store.create_session(&new).unwrap().id
        }
    }
}
