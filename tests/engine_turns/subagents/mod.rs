//! Sub-agents against the scripted model server, each child answered from its own script (keyed
//! by a marker in its task): the rig and the helpers of its test modules.

use hearth_engine::{register_agents, Agents, ModelChoice};
use hearth_protocol::{Settings, SubAgentStatus};
use hearth_tools::{Registry, ToolContext};

use crate::engine_turns::rig::*;

mod approvals;
mod delegation;
mod malformed;
mod personas;
mod picobot;
mod stopping;

struct AgentRig {
    engine: Arc<Engine>,
    agents: Arc<Agents>,
    registry: Arc<Registry>,
    store: Arc<Store>,
    dir: DataDir,
    _home: tempfile::TempDir,
}

fn agent_rig(server: &ScriptedServer, dialect: Dialect, settings: Settings) -> AgentRig {
    agent_rig_with(
        server,
        dialect,
        settings,
        Arc::new(FixedApprover(ApprovalDecision::Deny)),
    )
}

/// A rig whose parent turns ask `approver`.
fn agent_rig_with(
    server: &ScriptedServer,
    dialect: Dialect,
    settings: Settings,
    approver: Arc<dyn hearth_engine::Approver>,
) -> AgentRig {
    let home = tempfile::tempdir().unwrap();
    let dir = DataDir::at(home.path().to_path_buf());
    dir.ensure().unwrap();
    let store = Arc::new(Store::open(&dir.database()).unwrap());
    let client = server.openai_client();
    let persona_client = client.clone();
    let agents = Arc::new(Agents::new(store.clone()).with_models(Arc::new(
        move |_settings, requested| {
            Ok(ModelChoice {
                client: persona_client.clone(),
                model: requested.to_string(),
            })
        },
    )));
    agents.configure(&settings);
    let mut registry = builtin_registry(dialect);
    register_agents(&mut registry, &agents).unwrap();
    let registry = Arc::new(registry);
    let runner = Arc::new(ToolRunner::new(
        registry.clone(),
        approver,
        store.clone(),
        SecurityProfile::PersonalCli,
        dir.root().to_path_buf(),
    ));
    let options = EngineOptions::new(dir.clone(), "parent-model");
    let engine = Engine::new(store.clone(), client, runner, options).with_agents(agents.clone());
    AgentRig {
        engine: Arc::new(engine),
        agents,
        registry,
        store,
        dir,
        _home: home,
    }
}

impl AgentRig {
    async fn send(&self, session: &str, text: &str, cancel: CancellationToken) -> TurnSummaryOf {
        let events = Arc::new(Mutex::new(Vec::new()));
        let seen = events.clone();
        let sink = move |e: EngineEvent| seen.lock().unwrap().push(e);
        let summary = self
            .engine
            .send(session, vec![ContentPart::text(text)], &sink, cancel)
            .await
            .unwrap();
        let events = events.lock().unwrap().clone();
        TurnSummaryOf { summary, events }
    }

    fn session(&self) -> String {
        {
            // A sync helper of the tests: the store is called directly, as a blocking caller may.
            let new = self.engine.new_session("desktop", None);
            let store = self.engine.db().blocking();
            store.create_session(&new).unwrap().id
        }
    }

    /// The texts of the messages stored in `session`, in order.
    fn texts(&self, session: &str) -> Vec<String> {
        self.store
            .list_messages(session)
            .unwrap()
            .iter()
            .map(|m| m.text())
            .collect()
    }

    /// The tool results stored in `session`, parsed, in order.
    fn results(&self, session: &str) -> Vec<serde_json::Value> {
        self.store
            .list_messages(session)
            .unwrap()
            .into_iter()
            .filter_map(|m| m.tool_result)
            .map(|r| serde_json::from_str(&r.content).unwrap())
            .collect()
    }

    async fn call(&self, session: &str, tool: &str, args: serde_json::Value) -> serde_json::Value {
        let ctx = ToolContext {
            workspace: self.dir.workspace(),
            data_dir: self.dir.root().to_path_buf(),
            session_id: session.to_string(),
            cancel: CancellationToken::new(),
            images: Default::default(),
            conversation: None,
            sandbox: Default::default(),
        };
        match self.registry.dispatch(tool, &args.to_string(), &ctx).await {
            Ok(value) => value,
            Err(error) => error.to_json(),
        }
    }
}

struct TurnSummaryOf {
    summary: hearth_engine::TurnSummary,
    events: Vec<EngineEvent>,
}

/// The model requests of the conversation whose first user message contains `marker`.
fn requests_of(server: &ScriptedServer, marker: &str) -> Vec<serde_json::Value> {
    server
        .model_requests()
        .into_iter()
        .map(|r| r.body)
        .filter(|body| {
            body["messages"]
                .as_array()
                .and_then(|m| m.iter().find(|m| m["role"] == "user"))
                .is_some_and(|m| m.to_string().contains(marker))
        })
        .collect()
}

fn tool_names(body: &serde_json::Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .map(|t| t["function"]["name"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Waits (at most 10 s) until `count` children run.
async fn until_running(agents: &Agents, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while agents.running().len() < count {
        assert!(Instant::now() < deadline, "{count} children never ran");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
