//! One composition path: the app, `hearth-cli` and the job executor build tool registries, tool
//! runners, model clients and engines here, from the settings current at each turn or run; they
//! differ only in the adapters they pass (keychain, notifier, approver, background processes,
//! the job runner's wake signal).

use std::sync::Arc;

use hearth_llm::SharedModelClient;
use hearth_policy::SecurityProfile;
use hearth_protocol::{MessageKind, Session, Settings};
use hearth_scheduler::RunnerSignal;
use hearth_store::{Db, NewMessage, NewSession, Store};
use hearth_tools::{Background, Dialect, Registry};

use crate::agents::{register_agents, Agents, ModelSource};
use crate::approval::Approver;
use crate::channels::Channels;
use crate::engine::{Engine, EngineOptions};
use crate::provider::{choose_provider, model_client};
use crate::registry::{register_browser_tools, tool_registry_with_runner};
use crate::rules::enforced_rules;
use crate::tool_calls::ToolRunner;
use crate::turns::Turns;
use crate::{network_config, EngineError};
use hearth_core::DataDir;
use hearth_core::Notifier;
use hearth_core::SecretStore;
use hearth_core::ToolSource;

/// What every engine of one process shares.
pub struct EngineBuilder {
    db: Db,
    dir: DataDir,
    secrets: Arc<dyn SecretStore>,
    notifier: Arc<dyn Notifier>,
    background: Background,
    signal: Option<RunnerSignal>,
    turns: Arc<Turns>,
    sources: Vec<Arc<dyn ToolSource>>,
    agents: Arc<Agents>,
    browsers: hearth_browser::Browsers,
    channels: Channels,
    knowledge: hearth_knowledge::Knowledge,
    local: hearth_local::LocalModels,
}

/// The model a turn or run uses, with a client for its provider.
pub struct ModelChoice {
    pub client: SharedModelClient,
    pub model: String,
}

impl EngineBuilder {
    /// A builder over `db` (an `Arc<Store>` becomes a [`Db`] of its own) and the data dir
    /// `dir`; background processes and terminals the tools start live in a [`Background`] of
    /// its own (see [`EngineBuilder::with_background`]).
    pub fn new(
        db: impl Into<Db>,
        dir: DataDir,
        secrets: Arc<dyn SecretStore>,
        notifier: Arc<dyn Notifier>,
    ) -> EngineBuilder {
        let db = db.into();
        let keys = secrets.clone();
        let local = hearth_local::LocalModels::with_installed_worker(dir.models());
        let local_models = local.clone();
        let models: ModelSource = Arc::new(move |settings, requested| {
            let (entry, model) = choose_provider(settings, Some(requested))?;
            local_models.configure(&settings.local);
            let client = model_client(&entry, None, keys.as_ref(), &local_models)?;
            Ok(ModelChoice { client, model })
        });
        let browsers = hearth_browser::Browsers::new(dir.root());
        EngineBuilder {
            agents: Arc::new(Agents::new(db.clone()).with_models(models)),
            turns: Turns::new(db.clone()),
            channels: Channels::new(db.clone()),
            knowledge: hearth_knowledge::Knowledge::new(db.clone()),
            db,
            dir,
            secrets,
            notifier,
            background: Background::new(),
            signal: None,
            sources: Vec::new(),
            browsers,
            local,
        }
    }

    /// The local models of the data dir and the worker that runs them.
    pub fn local(&self) -> &hearth_local::LocalModels {
        &self.local
    }

    /// Keeps the tools' background processes and terminals in `background` (the app shuts it
    /// down at exit).
    pub fn with_background(mut self, background: Background) -> EngineBuilder {
        self.background = background;
        self
    }

    /// Job tools wake this process's job runner through `signal`, so a job created or triggered
    /// from a chat is seen at once.
    pub fn with_runner_signal(mut self, signal: RunnerSignal) -> EngineBuilder {
        self.signal = Some(signal);
        self
    }

    /// Every registry gets `source`'s tools (MCP servers), every runner its allow rules.
    pub fn with_tool_source(mut self, source: Arc<dyn ToolSource>) -> EngineBuilder {
        self.sources.push(source);
        self
    }

    /// Delivers through `channels` (the app's and the daemon's, with the configured webhooks
    /// and bots) instead of `desktop` only.
    pub fn with_channels(mut self, channels: Channels) -> EngineBuilder {
        self.channels = channels;
        self
    }

    /// The channels tools, job results and inbound chats use.
    pub fn channels(&self) -> &Channels {
        &self.channels
    }

    /// The wake signal of this process's job runner, if it has one.
    pub(crate) fn runner_signal(&self) -> Option<RunnerSignal> {
        self.signal.clone()
    }

    /// The store, reached from async code through [`Db`].
    pub fn db(&self) -> &Db {
        &self.db
    }

    pub fn dir(&self) -> &DataDir {
        &self.dir
    }

    pub fn secrets(&self) -> &Arc<dyn SecretStore> {
        &self.secrets
    }

    pub fn notifier(&self) -> &Arc<dyn Notifier> {
        &self.notifier
    }

    pub fn background(&self) -> &Background {
        &self.background
    }

    /// The sub-agent runtime every engine this builder makes starts children in.
    pub fn agents(&self) -> &Arc<Agents> {
        &self.agents
    }

    /// The managed browser of the `browser` tool (closed by its `shutdown` at exit).
    pub fn browsers(&self) -> &hearth_browser::Browsers {
        &self.browsers
    }

    /// The knowledge base the knowledge tools search (its folders follow the settings each
    /// registry is built with).
    pub fn knowledge(&self) -> &hearth_knowledge::Knowledge {
        &self.knowledge
    }

    /// The running turns of every engine this builder makes.
    pub fn turns(&self) -> &Arc<Turns> {
        &self.turns
    }

    /// The tool registry of `dialect`, its network tools configured from `settings` and the web
    /// search keys in the keychain (read here, once). Blocks on the keychain.
    /// The tools of the sources (MCP servers) that are ready now are added.
    pub fn registry(&self, dialect: Dialect, settings: &Settings) -> Registry {
        self.registry_for(dialect, settings, attended(settings))
    }

    /// [`EngineBuilder::registry`]; `attended` says someone is there to answer approvals
    /// (attaching to the user's own Chrome is refused otherwise).
    pub(crate) fn registry_for(
        &self,
        dialect: Dialect,
        settings: &Settings,
        attended: bool,
    ) -> Registry {
        let mut registry = tool_registry_with_runner(
            dialect,
            &self.db,
            self.notifier.clone(),
            network_config(settings, self.secrets.as_ref()),
            &self.background,
            self.signal.clone(),
            self.channels.clone(),
        );
        if let Err(error) = register_agents(&mut registry, &self.agents) {
            tracing::error!(%error, %dialect, "delegation tools left out");
        }
        if let Err(error) = hearth_tools::register_artifacts(
            &mut registry,
            self.db.clone(),
            Arc::new(self.channels.clone()),
            settings.artifacts.clone(),
        ) {
            tracing::error!(%error, %dialect, "artifact tools left out");
        }
        self.knowledge
            .set_folders(crate::knowledge_folders(settings, &self.dir));
        if let Err(error) = hearth_knowledge::register_knowledge(&mut registry, &self.knowledge) {
            tracing::error!(%error, %dialect, "knowledge tools left out");
        }
        let vision = Arc::new(crate::EngineVision {
            settings: settings.clone(),
            secrets: self.secrets.clone(),
            db: self.db.clone(),
            local: self.local.clone(),
        });
        let media = crate::media_config(settings, self.secrets.as_ref());
        let delivery = hearth_tools::channels::media_delivery(Arc::new(self.channels.clone()));
        crate::media::add_media_tools(&mut registry, media, vision, delivery);
        register_browser_tools(
            &mut registry,
            &self.browsers,
            &settings.browser,
            &settings.allow_local_hosts,
            attended,
        );
        for source in &self.sources {
            let tools = source.tools(settings.context_window);
            for (prefix, message) in tools.unavailable {
                registry.mark_unavailable(prefix, message);
            }
            let listed = tools.listed.into_iter().map(|tool| (tool, false));
            for (tool, deferred) in listed.chain(tools.deferred.into_iter().map(|t| (t, true))) {
                let added = if deferred {
                    registry.register_deferred(tool)
                } else {
                    registry.register_dyn(tool)
                };
                if let Err(error) = added {
                    tracing::warn!(%error, %dialect, "discovered tool left out");
                }
            }
        }
        registry
    }

    /// A runner of `registry`'s tools under `security` and the settings' rules, asking
    /// `approver` when policy says to ask.
    pub fn tool_runner(
        &self,
        registry: Arc<Registry>,
        settings: &Settings,
        security: SecurityProfile,
        approver: Arc<dyn Approver>,
    ) -> ToolRunner {
        ToolRunner::new(
            registry,
            approver,
            self.db.clone(),
            security,
            self.dir.root().to_path_buf(),
        )
        .with_rules(self.rules(settings))
        .with_sandbox(crate::sandbox::sandbox_settings(&settings.security))
        .with_grants(settings.security.grants.clone())
    }

    /// The user's rules, then the sources' allow rules (which never override a deny).
    fn rules(&self, settings: &Settings) -> Vec<hearth_policy::Rule> {
        let mut rules = enforced_rules(settings);
        rules.extend(self.sources.iter().flat_map(|source| source.allow_rules()));
        rules
    }

    /// The provider and model for a run asking for `requested` (`<provider id>:<model>`, a model
    /// of the default provider, or nothing for the defaults), with its key found as
    /// [`crate::resolve_api_key`] does (`key_env` first). Blocks on the keychain.
    pub fn model(
        &self,
        settings: &Settings,
        requested: Option<&str>,
        key_env: Option<&str>,
    ) -> Result<ModelChoice, EngineError> {
        let (entry, model) = choose_provider(settings, requested)?;
        self.local.configure(&settings.local);
        let client = model_client(&entry, key_env, self.secrets.as_ref(), &self.local)?;
        Ok(ModelChoice { client, model })
    }

    /// The model for a run nobody watches (`requested`, else the defaults) and the `hearth`
    /// registry, built on a blocking thread (both read the keychain).
    pub async fn unattended(
        self: &Arc<Self>,
        settings: &Settings,
        requested: Option<String>,
    ) -> Result<(ModelChoice, Registry), EngineError> {
        self.unattended_for(settings, requested, None).await
    }

    /// [`EngineBuilder::unattended`] for a run of `skill` when there is one (its dialect's
    /// registry, see [`EngineBuilder::skill_registry`]).
    pub async fn unattended_for(
        self: &Arc<Self>,
        settings: &Settings,
        requested: Option<String>,
        skill: Option<crate::SkillRun>,
    ) -> Result<(ModelChoice, Registry), EngineError> {
        let builder = self.clone();
        let settings = settings.clone();
        tokio::task::spawn_blocking(move || {
            let choice = builder.model(&settings, requested.as_deref(), None)?;
            let registry = match &skill {
                Some(run) => builder.skill_registry(run, &settings, false),
                None => builder.registry_for(Dialect::Hearth, &settings, false),
            };
            Ok::<_, EngineError>((choice, registry))
        })
        .await
        .map_err(|e| EngineError::Config(format!("the model client could not be built: {e}")))?
    }

    /// Copies the messages before `message_id` into a new session (stored rows, so earlier tool
    /// calls are never run again); the caller then sends the edited message there. Needs no
    /// provider, so an edit is kept even when none is configured.
    pub async fn fork(
        &self,
        session_id: &str,
        message_id: i64,
        title: &str,
    ) -> Result<Session, EngineError> {
        let (session_id, title) = (session_id.to_string(), title.to_string());
        self.db
            .write(move |store| fork_before(store, &session_id, message_id, &title))
            .await
    }

    /// An engine for one turn or run with the settings' profile and limits, registering its
    /// turns with the others of this builder.
    pub fn engine(
        &self,
        settings: &Settings,
        model: ModelChoice,
        tools: Arc<ToolRunner>,
    ) -> Engine {
        let options = EngineOptions::from_settings(self.dir.clone(), model.model, settings);
        self.agents.configure(settings);
        Engine::new(self.db.clone(), model.client, tools, options)
            .with_turns(self.turns.clone())
            .with_agents(self.agents.clone())
    }
}

/// [`EngineBuilder::fork`] in the calling thread.
fn fork_before(
    store: &Store,
    session_id: &str,
    message_id: i64,
    title: &str,
) -> Result<Session, EngineError> {
    let source = store
        .get_session(session_id)?
        .ok_or_else(|| EngineError::UnknownSession(session_id.to_string()))?;
    let channel = session_id.split(':').next().unwrap_or("desktop");
    let fork = NewSession {
        id: format!("{channel}:{}", uuid::Uuid::new_v4()),
        title: title.to_string(),
        model: source.model.clone(),
        workspace: source.workspace.clone(),
        tool_profile: source.tool_profile.clone(),
    };
    // Summaries point at the source's message ids, so the fork takes the originals instead.
    let kept = store.list_messages(session_id)?.into_iter();
    let copies: Vec<NewMessage> = kept
        .filter(|m| m.id < message_id && m.kind == MessageKind::Normal)
        .map(|m| NewMessage {
            tool_calls: m.tool_calls,
            tool_result: m.tool_result,
            status: m.status,
            model: m.model,
            usage: m.usage,
            error: m.error,
            error_code: m.error_code,
            ..NewMessage::new(&fork.id, m.role, m.content)
        })
        .collect();
    Ok(store.fork_session(&fork, &copies)?)
}

/// Whether someone is there to answer approvals in sessions under `settings` (a window or a
/// terminal: the `personal_cli` security profile).
pub fn attended(settings: &Settings) -> bool {
    settings.security_profile == SecurityProfile::PersonalCli
}
