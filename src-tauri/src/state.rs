//! The app's managed state (the composition root's output): data dir, store, settings, the
//! shared tool runner with the window's approver, the background processes and terminals its
//! tools start (shut down at exit), keychain, notifier, running turns, and the job service with
//! the scheduler's wake signal and pause switch.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use hearth_engine::{
    default_provider, enforced_rules, load_settings, network_config, resolve_api_key,
    tool_registry_with_runner, DataDir, Engine, EngineError, EngineOptions, KeyringStore, Notifier,
    OsNotifier, SecretStore, ToolRunner,
};
use hearth_llm::{build_client, ProviderConfig, ProviderKind, RetryPolicy, SharedModelClient};
use hearth_policy::{SecurityProfile, ToolProfile};
use hearth_protocol::{ProviderEntry, Settings};
use hearth_scheduler::{system_zone, JobService, RunnerPause, RunnerSignal, SystemClock};
use hearth_store::Store;
use hearth_tools::{Background, Dialect};
use tokio_util::sync::CancellationToken;

use crate::approvals::DesktopApprover;

pub struct AppState {
    pub dir: DataDir,
    pub store: Arc<Store>,
    pub settings: RwLock<Settings>,
    pub secrets: Arc<dyn SecretStore>,
    pub notifier: Arc<dyn Notifier>,
    pub approver: Arc<DesktopApprover>,
    pub background: Background,
    /// Jobs for the Jobs page; changes wake the app's runner through `runner_signal`.
    pub jobs: JobService,
    pub runner_signal: RunnerSignal,
    /// The tray's "Pause all jobs", shared with the runner.
    pub runner_pause: RunnerPause,
    tools: RwLock<Arc<ToolRunner>>,
    turns: Mutex<HashMap<String, CancellationToken>>,
    pub started: std::time::Instant,
}

/// Errors cross the IPC boundary as strings.
pub type CommandResult<T> = Result<T, String>;

pub fn to_message(error: impl std::fmt::Display) -> String {
    error.to_string()
}

impl AppState {
    /// Opens the data dir and the store, recovering replies a dead process left `streaming`.
    pub fn open(dir: DataDir, started: std::time::Instant) -> Result<AppState, EngineError> {
        dir.ensure()?;
        let settings = load_settings(&dir.config())?;
        let store = Arc::new(Store::open(&dir.database())?);
        let recovered = store.mark_streaming_interrupted()?;
        if recovered > 0 {
            tracing::info!(recovered, "marked unfinished replies as interrupted");
        }
        let approver = Arc::new(DesktopApprover::default());
        let secrets: Arc<dyn SecretStore> = Arc::new(KeyringStore::new());
        let background = Background::new();
        let runner_signal = RunnerSignal::default();
        let runner_pause = RunnerPause::default();
        runner_pause.set(settings.jobs_paused);
        let parts = RunnerParts {
            store: &store,
            approver: &approver,
            dir: &dir,
            secrets: secrets.as_ref(),
            background: &background,
            signal: &runner_signal,
        };
        let tools = RwLock::new(parts.runner(&settings));
        let jobs = JobService::new(store.clone(), Arc::new(SystemClock), system_zone())
            .with_signal(runner_signal.clone());
        Ok(AppState {
            dir,
            store,
            settings: RwLock::new(settings),
            secrets,
            notifier: Arc::new(OsNotifier),
            approver,
            background,
            jobs,
            runner_signal,
            runner_pause,
            tools,
            turns: Mutex::new(HashMap::new()),
            started,
        })
    }

    pub fn settings(&self) -> Settings {
        self.settings.read().map(|s| s.clone()).unwrap_or_default()
    }

    pub fn tools(&self) -> Arc<ToolRunner> {
        match self.tools.read() {
            Ok(tools) => tools.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Stores new settings in memory; the tool runner follows a changed security profile or
    /// network setting (background processes and terminals carry over).
    pub fn apply_settings(&self, settings: Settings) {
        let current = self.settings();
        let tools_changed = current.security_profile != settings.security_profile
            || current.allow_local_hosts != settings.allow_local_hosts
            || current.search != settings.search
            || current.rules != settings.rules;
        if let Ok(mut current) = self.settings.write() {
            *current = settings;
        }
        if tools_changed {
            self.rebuild_tools();
        }
    }

    /// Builds the tool runner again from the settings and the keychain (e.g. after a web search
    /// key changed). Reads the keychain: call it off the main thread where possible.
    pub fn rebuild_tools(&self) {
        let runner = self.runner_parts().runner(&self.settings());
        if let Ok(mut tools) = self.tools.write() {
            *tools = runner;
        }
    }

    /// Kills every background process and terminal session the tools started (app exit).
    pub fn shutdown(&self) {
        let stopped = self.background.shutdown();
        tracing::info!(stopped, "background processes and terminals stopped");
    }

    fn runner_parts(&self) -> RunnerParts<'_> {
        RunnerParts {
            store: &self.store,
            approver: &self.approver,
            dir: &self.dir,
            secrets: self.secrets.as_ref(),
            background: &self.background,
            signal: &self.runner_signal,
        }
    }

    /// An engine for one turn, using the provider and model chosen now.
    pub async fn engine(&self) -> CommandResult<Engine> {
        let settings = self.settings();
        let entry = default_provider(&settings).cloned().ok_or_else(|| {
            "No model provider is configured yet: open Settings and add one (OpenAI-compatible, Anthropic, Ollama or Gemini)".to_string()
        })?;
        let model = entry
            .default_model
            .clone()
            .or_else(|| settings.default_model.clone())
            .ok_or_else(|| format!("Choose a default model for '{}' in Settings", entry.name))?;
        let client = self.client_for(&entry).await?;
        let mut options = EngineOptions::new(self.dir.clone(), model);
        options.tool_profile =
            ToolProfile::parse(&settings.tool_profile).unwrap_or(ToolProfile::Coding);
        options.max_iterations = settings.max_iterations.max(1);
        options.context_window = settings.context_window;
        Ok(Engine::new(
            self.store.clone(),
            client,
            self.tools(),
            options,
        ))
    }

    /// A model client for a provider entry, with its key from the environment or keychain.
    pub async fn client_for(&self, entry: &ProviderEntry) -> CommandResult<SharedModelClient> {
        let kind = ProviderKind::parse(&entry.kind)
            .ok_or_else(|| format!("unknown provider kind '{}'", entry.kind))?;
        let secrets = self.secrets.clone();
        let id = entry.id.clone();
        let api_key =
            tokio::task::spawn_blocking(move || resolve_api_key(kind, &id, None, secrets.as_ref()))
                .await
                .map_err(to_message)?
                .map_err(to_message)?;
        let base_url = if entry.base_url.is_empty() {
            kind.default_base_url().to_string()
        } else {
            entry.base_url.clone()
        };
        build_client(ProviderConfig {
            kind,
            provider_id: entry.id.clone(),
            base_url,
            api_key,
            retry: RetryPolicy::default(),
            connect_timeout: Duration::from_secs(30),
        })
        .map_err(to_message)
    }

    /// Registers a running turn; its token cancels it.
    pub fn begin_turn(&self, session_id: &str) -> CancellationToken {
        let token = CancellationToken::new();
        if let Ok(mut turns) = self.turns.lock() {
            turns.insert(session_id.to_string(), token.clone());
        }
        token
    }

    pub fn end_turn(&self, session_id: &str) {
        if let Ok(mut turns) = self.turns.lock() {
            turns.remove(session_id);
        }
    }

    /// Whether any chat's turn is running.
    pub fn turns_running(&self) -> bool {
        self.turns.lock().map(|t| !t.is_empty()).unwrap_or(false)
    }

    /// Cancels a session's running turn; false when none runs.
    pub fn cancel_turn(&self, session_id: &str) -> bool {
        let token = self
            .turns
            .lock()
            .ok()
            .and_then(|t| t.get(session_id).cloned());
        token.map(|t| t.cancel()).is_some()
    }
}

/// What a tool runner is built from, besides the settings.
struct RunnerParts<'a> {
    store: &'a Arc<Store>,
    approver: &'a Arc<DesktopApprover>,
    dir: &'a DataDir,
    secrets: &'a dyn SecretStore,
    background: &'a Background,
    signal: &'a RunnerSignal,
}

impl RunnerParts<'_> {
    fn runner(&self, settings: &Settings) -> Arc<ToolRunner> {
        let security = SecurityProfile::parse(&settings.security_profile)
            .unwrap_or(SecurityProfile::PersonalCli);
        let registry = tool_registry_with_runner(
            Dialect::Hearth,
            self.store,
            Arc::new(OsNotifier),
            network_config(settings, self.secrets),
            self.background,
            Some(self.signal.clone()),
        );
        Arc::new(
            ToolRunner::new(
                Arc::new(registry),
                self.approver.clone(),
                self.store.clone(),
                security,
                self.dir.root().to_path_buf(),
            )
            .with_rules(enforced_rules(settings)),
        )
    }
}
