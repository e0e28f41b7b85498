//! The job executor of the desktop app and `hearth-cli daemon`: each run of a scheduled job is a
//! fresh agent session under the `daemon` security profile, with the job's own model, its
//! answer delivered to the job's target (a session or a channel's chat) and notified. A run of a
//! job bound to a skill is a skill run: its instructions, dialect and declared permissions.

mod deliver;
mod grant;

use std::sync::Arc;

use async_trait::async_trait;
use hearth_policy::{SecurityProfile, ToolProfile};
use hearth_protocol::{
    AppError, ApprovalDecision, ContentPart, Language, MessageKind, Role, Settings, Text, TurnEnd,
};
use hearth_scheduler::{JobExecutor, JobOutput, RunFailure, RunRequest};
use hearth_store::Db;
use tokio_util::sync::CancellationToken;

use crate::approval::FixedApprover;
use crate::builder::EngineBuilder;
use crate::{load_settings, EngineError, SkillRun};
use hearth_core::DataDir;
use hearth_core::SecretStore;
use hearth_core::{Notifier, OnClick};

use deliver::Outcome;
pub use grant::JobGrant;

/// Where a job run reads the settings (providers, default model, tool profile) from.
type SettingsSource = Arc<dyn Fn() -> Result<Settings, EngineError> + Send + Sync>;

/// Makes what a click on a job's notification does, given the chat it is about.
type ClickSource = Arc<dyn Fn(Option<String>) -> OnClick + Send + Sync>;

/// Runs scheduled jobs through the real turn loop.
///
/// Each run: a new session `job:<uuid>` titled `Job: <name>`; the job's instruction as the
/// user message; the job's model (`<provider id>:<model>` or a model of the default provider),
/// else the settings' default, with the API key from the environment or the keychain; the
/// `daemon` security profile, so high-risk tools run only when the job's authorization is
/// valid and covers them — otherwise they are refused (never asked) and the answer says the
/// job needs re-approval. The answer is appended to the job's target session labelled with the
/// job and notified when the job says so; failures are returned (recorded in the job's
/// history) and always notified.
///
/// Settings are read from `config.toml` at every run, so changes made in the app apply to the
/// next run. Wiring it into a runner:
///
/// ```no_run
/// # use std::sync::Arc;
/// # fn wire(store: Arc<hearth_store::Store>, dir: hearth_core::DataDir) {
/// use hearth_core::KeyringStore;
/// use hearth_engine::{AgentJobExecutor, OsNotifier};
/// use hearth_scheduler::{Runner, SystemClock};
///
/// let executor = AgentJobExecutor::new(
///     store.clone(),
///     dir,
///     Arc::new(KeyringStore::new()),
///     Arc::new(OsNotifier),
/// );
/// // Inside a tokio runtime (the app: `tauri::async_runtime::spawn` / `block_on`):
/// let runner = Runner::new(store, Arc::new(SystemClock), Arc::new(executor));
/// let signal = runner.signal(); // give it to JobService::with_signal / register_jobs
/// let handle = runner.start();
/// // …on quit: `handle.stop().await` releases the scheduler lease.
/// # let _ = (signal, handle);
/// # }
/// ```
pub struct AgentJobExecutor {
    builder: Arc<EngineBuilder>,
    settings: SettingsSource,
    on_click: Option<ClickSource>,
}

/// What a finished agent run produced.
struct AgentAnswer {
    session_id: String,
    model: String,
    text: String,
}

impl AgentJobExecutor {
    /// An executor over `db` and the data dir `dir`, reading `config.toml` at every run.
    pub fn new(
        db: impl Into<Db>,
        dir: DataDir,
        secrets: Arc<dyn SecretStore>,
        notifier: Arc<dyn Notifier>,
    ) -> AgentJobExecutor {
        AgentJobExecutor::from_builder(Arc::new(EngineBuilder::new(db, dir, secrets, notifier)))
    }

    /// An executor building its runs with `builder` (the app's, so that job runs share its
    /// running turns, background processes and runner wake-up), reading `config.toml` at every
    /// run.
    pub fn from_builder(builder: Arc<EngineBuilder>) -> AgentJobExecutor {
        let config = builder.dir().config();
        AgentJobExecutor {
            builder,
            settings: Arc::new(move || load_settings(&config)),
            on_click: None,
        }
    }

    /// Reads the settings from `settings` instead of `config.toml` (the app's in-memory copy,
    /// or the CLI's flags over the file).
    pub fn with_settings(
        mut self,
        settings: impl Fn() -> Result<Settings, EngineError> + Send + Sync + 'static,
    ) -> AgentJobExecutor {
        self.settings = Arc::new(settings);
        self
    }

    /// Makes job notifications clickable: `on_click(chat)` says what a click does (the app
    /// opens the chat the run delivered to, or the run's own session).
    pub fn with_click(
        mut self,
        on_click: impl Fn(Option<String>) -> OnClick + Send + Sync + 'static,
    ) -> AgentJobExecutor {
        self.on_click = Some(Arc::new(on_click));
        self
    }

    /// The click action for a notification about `chat`, if notifications are clickable.
    fn click(&self, chat: Option<String>) -> Option<OnClick> {
        self.on_click.as_ref().map(|make| make(chat))
    }

    fn db(&self) -> &Db {
        self.builder.db()
    }

    fn notifier(&self) -> &Arc<dyn Notifier> {
        self.builder.notifier()
    }

    /// One agent turn for the run, in a fresh session. The settings (network ones included)
    /// are read once, at its start.
    async fn answer(&self, request: &RunRequest) -> Result<AgentAnswer, RunFailure> {
        let job = &request.job;
        let settings = (self.settings)().map_err(|e| {
            RunFailure::new(AppError::Settings {
                message: e.to_string(),
            })
        })?;
        let skill = match &job.skill {
            Some(name) => Some(self.skill_run(name).await?),
            None => None,
        };
        let (choice, registry) = self
            .builder
            .unattended_for(&settings, job.model.clone(), skill.clone())
            .await
            .map_err(|e| RunFailure::new(AppError::from(e)))?;
        let model = choice.model.clone();
        let grant = JobGrant::new(job, request.authorized_tools.as_deref());
        let mut runner = self
            .builder
            .tool_runner(
                Arc::new(registry),
                &settings,
                SecurityProfile::Daemon,
                Arc::new(FixedApprover(ApprovalDecision::Deny)),
            )
            .with_job_grant(grant.clone());
        if let Some(run) = &skill {
            runner = runner.with_skill_grant(run.skill.grant.clone());
        }
        let tools = Arc::new(runner);
        let mut settings = settings;
        if grant.tools.is_some() {
            // The approved high-risk tools (exec, process…) are exposed only by `full`.
            settings.tool_profile = ToolProfile::Full;
        }
        let engine = self.builder.engine(&settings, choice, tools.clone());
        let session = engine
            .create_session(
                "job",
                Some(&Text::JobRunTitle { name: &job.name }.in_language(settings.language)),
            )
            .await
            .map_err(|e| RunFailure::new(AppError::from(e)))?;
        let (id, chosen) = (session.id.clone(), model.clone());
        let recorded = self
            .db()
            .write(move |store| store.set_session_model(&id, Some(&chosen)))
            .await;
        if let Err(error) = recorded {
            tracing::warn!(%error, "cannot record the job session's model");
        }
        let typed = vec![ContentPart::text(job.prompt.clone())];
        let prompt = match &skill {
            Some(run) => run.content(typed),
            None => typed,
        };
        let summary = engine
            .send(&session.id, prompt, &|_| {}, CancellationToken::new())
            .await
            .map_err(|e| RunFailure::in_session(AppError::from(e), &session.id))?;
        let stopped = match summary.end {
            TurnEnd::Completed => None,
            TurnEnd::MaxIterations => Some(AppError::RunStoppedAtIterations {
                iterations: summary.iterations,
            }),
            TurnEnd::Cancelled => Some(AppError::RunCancelled),
        };
        if let Some(code) = stopped {
            return Err(RunFailure::in_session(code, &session.id));
        }
        let mut text = final_answer(self.db(), &session.id).await?;
        let refused = tools.job_refusals();
        if !refused.is_empty() {
            text.push_str(&format!(
                "\n\n⚠ Refused high-risk tool(s) {}: {}",
                refused.join(", "),
                grant.refusal_note()
            ));
        }
        Ok(AgentAnswer {
            session_id: session.id,
            model,
            text,
        })
    }
}

impl AgentJobExecutor {
    /// The skill a bound job's run is a run of; a failure when it is gone or switched off.
    async fn skill_run(&self, name: &str) -> Result<SkillRun, RunFailure> {
        let dir = self.builder.dir().clone();
        let name = name.to_string();
        tokio::task::spawn_blocking(move || SkillRun::load(dir.root(), &dir.workspace(), &name))
            .await
            .map_err(|e| RunFailure::new(AppError::internal(e)))?
            .map_err(|e| {
                RunFailure::new(AppError::Skill {
                    message: e.to_string(),
                })
            })
    }
}

/// The text of the session's last assistant message (a failure when there is none).
pub(crate) async fn final_answer(db: &Db, session_id: &str) -> Result<String, RunFailure> {
    let id = session_id.to_string();
    let messages = db.read(move |store| store.list_messages(&id)).await;
    let messages = messages.map_err(|e| {
        RunFailure::new(AppError::Store {
            message: e.to_string(),
        })
    })?;
    let text = messages
        .iter()
        .rev()
        .find(|m| m.role == Role::Assistant && m.kind == MessageKind::Normal)
        .map(|m| m.text().trim().to_string())
        .unwrap_or_default();
    if text.is_empty() {
        return Err(RunFailure::in_session(
            AppError::RunWithoutAnswer,
            session_id,
        ));
    }
    Ok(text)
}

#[async_trait]
impl JobExecutor for AgentJobExecutor {
    async fn run(&self, request: RunRequest) -> Result<JobOutput, RunFailure> {
        let job = &request.job;
        let language = (self.settings)().map_or(Language::En, |s| s.language);
        let label = deliver::label(&request, language);
        let delivered = match self.answer(&request).await {
            Ok(answer) => {
                let delivery = match &job.target {
                    Some(target) => {
                        deliver::deliver(
                            self.builder.channels(),
                            &answer.session_id,
                            target,
                            &format!("{label}\n\n{}", answer.text),
                            &answer.model,
                        )
                        .await
                    }
                    None => Ok(()),
                };
                delivery.map(|()| answer).map_err(RunFailure::new)
            }
            Err(error) => Err(error),
        };
        match delivered {
            Ok(mut answer) => {
                if job.notify {
                    let title = Text::JobFinished { name: &job.name }.in_language(language);
                    let chat = job.target.clone().or(Some(answer.session_id.clone()));
                    let (text, click) = (answer.text.as_str(), self.click(chat));
                    let finished = Outcome::Finished;
                    if let Some(skipped) =
                        deliver::notify(self.db(), self.notifier(), finished, title, text, click)
                            .await
                    {
                        answer.text.push_str(&format!("\n\n{skipped}"));
                    }
                }
                Ok(JobOutput {
                    text: answer.text,
                    session_id: Some(answer.session_id),
                })
            }
            Err(error) => {
                let title = Text::JobFailed { name: &job.name }.in_language(language);
                let click = self.click(job.target.clone());
                let failed = Outcome::Failed;
                let text = error.code.in_language(language);
                deliver::notify(self.db(), self.notifier(), failed, title, &text, click).await;
                Err(error)
            }
        }
    }
}
