//! The app's managed state (the composition root's output): data dir, store, settings, the
//! shared tool runner with the window's approver, the background processes and terminals its
//! tools start (shut down at exit), keychain, notifier, running turns, the job service with
//! the scheduler's wake signal and pause switch, and the channels (webhooks, Telegram bots)
//! with their inbound gateway.

use std::sync::{Arc, RwLock};

use crate::background_built::BackgroundBuilt;
use crate::tasks::{Tasks, EXIT_GRACE};
use hearth_core::{DataDir, KeyringStore, Notifier, SecretStore};
use hearth_engine::{
    Channels, ChatSandboxes, Engine, EngineBuilder, EngineError, GatewayHandle, OsNotifier,
    ToolRunner, Turns,
};
use hearth_llm::SharedModelClient;
use hearth_mcp::McpManager;
use hearth_protocol::{AppError, ProviderEntry, Settings};
use hearth_scheduler::{system_zone, JobService, RunnerPause, RunnerSignal, SystemClock};
use hearth_store::Db;
use hearth_tools::{Background, Dialect};

use crate::approvals::DesktopApprover;

pub struct AppState {
    pub dir: DataDir,
    /// The store; async code reaches it through [`Db`] only.
    pub db: Db,
    pub settings: RwLock<Settings>,
    pub secrets: Arc<dyn SecretStore>,
    pub notifier: Arc<dyn Notifier>,
    pub approver: Arc<DesktopApprover>,
    /// Builds every engine, tool runner and model client of the app and its job runs; owns the
    /// running turns and the tools' background processes and terminals (shut down at exit).
    pub builder: Arc<EngineBuilder>,
    /// Jobs for the Jobs page; changes wake the app's runner through `runner_signal`.
    pub jobs: JobService,
    pub runner_signal: RunnerSignal,
    /// The tray's "Pause all jobs", shared with the runner.
    pub runner_pause: RunnerPause,
    /// The MCP servers of `[[mcp_servers]]`, started in the background once the app runs.
    pub mcp: Arc<McpManager>,
    /// The channels that could not be built at the last reload, each with the reason.
    pub channel_problems: RwLock<Vec<(String, String)>>,
    /// The inbound channels' polling loops (replaced when the channels change).
    pub gateway: tokio::sync::Mutex<Option<GatewayHandle>>,
    /// Background work waited for at exit (see [`Tasks`]).
    pub tasks: Tasks,
    /// Built beside the window at start-up (see [`BackgroundBuilt`]).
    tools: BackgroundBuilt<Arc<ToolRunner>>,
    /// What each chat chose about its commands' sandbox, kept across rebuilt runners.
    chats: Arc<ChatSandboxes>,
    pub started: std::time::Instant,
}

/// Commands fail with typed errors the UI translates.
pub type CommandResult<T> = Result<T, AppError>;

impl AppState {
    /// Opens the data dir and the store, recovering replies a dead process left `streaming`.
    pub fn open(dir: DataDir, started: std::time::Instant) -> Result<AppState, EngineError> {
        let (settings, store) = hearth_engine::open_data(&dir)?;
        let db = Db::new(Arc::new(store));
        // Start-up runs before the window and the workers: the store is called directly.
        let store = db.blocking();
        let recovered = store.mark_streaming_interrupted()?;
        if recovered > 0 {
            tracing::info!(recovered, "marked unfinished replies as interrupted");
        }
        hearth_engine::recover_agent_runs(store, settings.language)?;
        let approver = Arc::new(DesktopApprover::default());
        let secrets: Arc<dyn SecretStore> = Arc::new(KeyringStore::new());
        let notifier: Arc<dyn Notifier> = Arc::new(OsNotifier);
        let runner_signal = RunnerSignal::default();
        let runner_pause = RunnerPause::default();
        runner_pause.set(settings.jobs_paused);
        let secret = |account: &str| secrets.get(account).ok().flatten();
        let mcp = McpManager::new(&settings.mcp_servers, &secret, &dir.logs().join("mcp"));
        let channels = Channels::new(db.clone()).with_factory(Arc::new(hearth_channels::Adapters));
        let channel_problems = RwLock::new(channels.reload(&settings, secrets.as_ref()));
        let builder = Arc::new(
            EngineBuilder::new(db.clone(), dir.clone(), secrets.clone(), notifier.clone())
                .with_background(Background::new())
                .with_runner_signal(runner_signal.clone())
                .with_tool_source(mcp.clone())
                .with_channels(channels),
        );
        let chats = Arc::new(ChatSandboxes::default());
        let tools = {
            let (builder, approver, settings, chats) = (
                builder.clone(),
                approver.clone(),
                settings.clone(),
                chats.clone(),
            );
            BackgroundBuilt::start("hearth-tools", move || {
                desktop_runner(&builder, &approver, &settings, &chats)
            })
        };
        let jobs = JobService::new(db.clone(), Arc::new(SystemClock), system_zone())
            .with_signal(runner_signal.clone());
        Ok(AppState {
            dir,
            db,
            settings: RwLock::new(settings),
            secrets,
            notifier,
            approver,
            builder,
            jobs,
            runner_signal,
            runner_pause,
            mcp,
            channel_problems,
            gateway: tokio::sync::Mutex::new(None),
            tasks: Tasks::default(),
            tools,
            chats,
            started,
        })
    }

    pub fn settings(&self) -> Settings {
        match self.settings.read() {
            Ok(settings) => settings.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    pub fn tools(&self) -> Arc<ToolRunner> {
        self.tools.get()
    }

    /// Stores new settings in memory; the tool runner follows a changed security profile,
    /// network, media or provider setting (background processes and terminals carry over), and
    /// the MCP servers follow `[[mcp_servers]]` (their tool changes rebuild the runner).
    pub fn apply_settings(&self, settings: Settings) {
        let current = self.settings();
        if current.mcp_servers != settings.mcp_servers {
            let secret = |account: &str| self.secrets.get(account).ok().flatten();
            self.mcp.apply(&settings.mcp_servers, &secret);
        }
        let tools_changed = current.security_profile != settings.security_profile
            || current.allow_local_hosts != settings.allow_local_hosts
            || current.search != settings.search
            || current.rules != settings.rules
            || current.security != settings.security
            || current.media != settings.media
            // vision_analyze picks its model from the providers it was built with.
            || current.providers != settings.providers
            || current.default_provider != settings.default_provider;
        match self.settings.write() {
            Ok(mut current) => *current = settings,
            Err(poisoned) => *poisoned.into_inner() = settings,
        }
        if tools_changed {
            self.rebuild_tools();
        }
    }

    /// Builds the tool runner again from the settings and the keychain (e.g. after a web search
    /// key changed). Reads the keychain: call it off the main thread where possible.
    pub fn rebuild_tools(&self) {
        let runner = desktop_runner(&self.builder, &self.approver, &self.settings(), &self.chats);
        self.tools.set(runner);
    }

    /// Builds the configured channels again from the settings and the keychain (blocks on the
    /// keychain), keeping the reasons of those that could not be built.
    pub fn reload_channels(&self) {
        let problems = self
            .builder
            .channels()
            .reload(&self.settings(), self.secrets.as_ref());
        match self.channel_problems.write() {
            Ok(mut current) => *current = problems,
            Err(poisoned) => *poisoned.into_inner() = problems,
        }
    }

    /// Why channel `name` could not be built at the last reload, if it could not.
    pub fn channel_problem(&self, name: &str) -> Option<String> {
        let problems = match self.channel_problems.read() {
            Ok(problems) => problems,
            Err(poisoned) => poisoned.into_inner(),
        };
        problems
            .iter()
            .find(|(channel, _)| channel == name)
            .map(|(_, why)| why.clone())
    }

    /// Waits for the tracked background work (at most [`EXIT_GRACE`]), cancels every sub-agent
    /// (each stores how it ended), stops polling the inbound channels, kills every background
    /// process and terminal session the tools started, shuts the MCP servers down and closes
    /// the agent's browser (app exit).
    pub fn shutdown(&self) {
        let left = tauri::async_runtime::block_on(self.tasks.finish(EXIT_GRACE));
        tracing::info!(left, "background work finished");
        if let Some(gateway) = tauri::async_runtime::block_on(self.gateway.lock()).take() {
            tauri::async_runtime::block_on(gateway.stop());
            tracing::info!("inbound channels stopped");
        }
        let agents = self.builder.agents();
        let cancelled =
            tauri::async_runtime::block_on(agents.shutdown(hearth_engine::CANCEL_GRACE));
        tracing::info!(cancelled, "sub-agents cancelled");
        let stopped = self.builder.background().shutdown();
        tracing::info!(stopped, "background processes and terminals stopped");
        tauri::async_runtime::block_on(self.mcp.shutdown());
        tracing::info!("MCP servers stopped");
        tauri::async_runtime::block_on(self.builder.browsers().shutdown());
        tracing::info!("the agent's browser closed");
    }

    /// The background processes and terminals the tools started.
    pub fn background(&self) -> &Background {
        self.builder.background()
    }

    /// The app's running turns (chats and job runs).
    pub fn turns(&self) -> &Arc<Turns> {
        self.builder.turns()
    }

    /// An engine for one turn, with the provider, model and settings current now.
    pub async fn engine(&self) -> CommandResult<Engine> {
        let settings = self.settings();
        let builder = self.builder.clone();
        let model_settings = settings.clone();
        let choice =
            tokio::task::spawn_blocking(move || builder.model(&model_settings, None, None))
                .await
                .map_err(AppError::internal)??;
        Ok(self.builder.engine(&settings, choice, self.tools()))
    }

    /// A model client for a provider entry, with its key from the environment or keychain.
    pub async fn client_for(&self, entry: &ProviderEntry) -> CommandResult<SharedModelClient> {
        let secrets = self.secrets.clone();
        let entry = entry.clone();
        let local = self.builder.local().clone();
        Ok(tokio::task::spawn_blocking(move || {
            hearth_engine::model_client(&entry, None, secrets.as_ref(), &local)
        })
        .await
        .map_err(AppError::internal)??)
    }
}

/// The window's tool runner: Hearth's tools under the settings' security profile and rules,
/// asking the user in the window.
fn desktop_runner(
    builder: &EngineBuilder,
    approver: &Arc<DesktopApprover>,
    settings: &Settings,
    chats: &Arc<ChatSandboxes>,
) -> Arc<ToolRunner> {
    let registry = builder.registry(Dialect::Hearth, settings);
    Arc::new(
        builder
            .tool_runner(
                Arc::new(registry),
                settings,
                settings.security_profile,
                approver.clone(),
            )
            .with_chat_sandboxes(chats.clone()),
    )
}
