//! The `local` provider: one worker at a time with one model loaded, started on the first
//! request for it, kept between turns (its context holds the chat's prefix), ended after the
//! idle time, and started again after a crash.

pub(crate) mod process;
mod reply;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hearth_llm::{
    ChatRequest, EventStream, LlmError, ModelClient, ModelInfo, SharedModelClient, ToolChoice,
};
use hearth_protocol::{AppError, LocalSettings, ProviderKind};
use tokio::sync::Mutex as AsyncMutex;

use crate::catalog::{Catalog, RUN_CONTEXT};
use crate::check_header;
use crate::prompt::{Template, CALL_CLOSER, CALL_TRIGGER};
use crate::wire::{Generate, Load, Request, ToolGrammar};
use process::Worker;

/// Tokens a reply may take when the request sets no limit.
const DEFAULT_MAX_TOKENS: u32 = 4096;

/// The local models of one data dir and the worker that runs them. Clones share both.
#[derive(Clone)]
pub struct LocalModels {
    inner: Arc<Inner>,
}

struct Inner {
    catalog: Catalog,
    program: PathBuf,
    settings: Mutex<LocalSettings>,
    worker: Arc<AsyncMutex<Option<Worker>>>,
    /// Counts replies, so an idle timer knows whether another reply came after it was set.
    replies: AtomicU64,
    /// The process id of the worker started last.
    last_pid: AtomicU32,
    downloads: crate::Downloads,
}

impl LocalModels {
    /// The models of `folder`, run by workers of `program` (a program that calls
    /// [`serve_worker_if_asked`](crate::serve_worker_if_asked) first thing).
    pub fn new(folder: PathBuf, program: PathBuf) -> LocalModels {
        LocalModels {
            inner: Arc::new(Inner {
                catalog: Catalog::new(folder, program.clone()),
                program,
                settings: Mutex::new(LocalSettings::default()),
                worker: Arc::new(AsyncMutex::new(None)),
                replies: AtomicU64::new(0),
                last_pid: AtomicU32::new(0),
                downloads: crate::Downloads::default(),
            }),
        }
    }

    /// [`LocalModels::new`] with workers of [`WORKER_PROGRAM`](crate::WORKER_PROGRAM) installed
    /// beside the running executable (when it is missing, starting a model says which path it
    /// tried).
    pub fn with_installed_worker(folder: PathBuf) -> LocalModels {
        let program = hearth_children::helper_beside_this_program(crate::WORKER_PROGRAM)
            .unwrap_or_else(|| PathBuf::from(crate::WORKER_PROGRAM));
        LocalModels::new(folder, program)
    }

    pub fn catalog(&self) -> &Catalog {
        &self.inner.catalog
    }

    /// The downloads into the models folder.
    pub fn downloads(&self) -> &crate::Downloads {
        &self.inner.downloads
    }

    /// Takes the `[local]` settings for the next load and idle timer.
    pub fn configure(&self, settings: &LocalSettings) {
        if let Ok(mut current) = self.inner.settings.lock() {
            *current = settings.clone();
        }
    }

    /// The `local` provider's client.
    pub fn client(&self) -> SharedModelClient {
        Arc::new(self.clone())
    }

    /// The loaded model's name and its worker's process id, if one is loaded.
    pub async fn loaded(&self) -> Option<(String, u32)> {
        let worker = self.inner.worker.lock().await;
        let worker = worker.as_ref()?;
        let name = worker.load.path.file_stem()?.to_string_lossy().into_owned();
        Some((name, worker.pid()?))
    }

    /// The process id of the worker started last (it may have ended since); without waiting
    /// for a reply under way.
    pub fn last_worker_pid(&self) -> Option<u32> {
        Some(self.inner.last_pid.load(Ordering::SeqCst)).filter(|&pid| pid != 0)
    }

    /// Ends the worker, giving its memory back.
    pub async fn unload(&self) {
        self.inner.worker.lock().await.take();
    }

    fn settings(&self) -> LocalSettings {
        self.inner
            .settings
            .lock()
            .map(|s| s.clone())
            .unwrap_or_default()
    }

    /// The worker for `load`, started (or restarted for another model) as needed.
    async fn worker_for(
        &self,
        load: Load,
    ) -> Result<tokio::sync::OwnedMutexGuard<Option<Worker>>, AppError> {
        let mut guard = self.inner.worker.clone().lock_owned().await;
        if guard.as_ref().is_some_and(|w| w.load != load) {
            guard.take();
        }
        if guard.is_none() {
            let worker = Worker::start(&self.inner.program, load).await?;
            self.inner
                .last_pid
                .store(worker.pid().unwrap_or(0), Ordering::SeqCst);
            *guard = Some(worker);
        }
        Ok(guard)
    }

    /// After a reply: end the worker once it has been idle for the set time.
    fn arm_idle_timer(&self) {
        let reply = self.inner.replies.fetch_add(1, Ordering::SeqCst) + 1;
        let minutes = u64::from(self.settings().idle_minutes.max(1));
        let inner = Arc::downgrade(&self.inner);
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            tokio::time::sleep(Duration::from_secs(minutes * 60)).await;
            let Some(inner) = inner.upgrade() else {
                return;
            };
            let mut worker = inner.worker.lock().await;
            if inner.replies.load(Ordering::SeqCst) == reply && worker.take().is_some() {
                tracing::info!(minutes, "local model unloaded after its idle time");
            }
        });
    }
}

#[async_trait::async_trait]
impl ModelClient for LocalModels {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Local
    }

    async fn stream(&self, request: &ChatRequest) -> Result<EventStream, LlmError> {
        let path = self
            .catalog()
            .path_of(&request.model)
            .map_err(LlmError::Local)?;
        check_header(&path).map_err(|detail| {
            LlmError::Local(AppError::LocalModelUnusable {
                file: path.display().to_string(),
                detail,
            })
        })?;
        let settings = self.settings();
        let load = Load {
            path,
            context_length: settings.context_length,
            threads: settings.threads,
        };
        let mut guard = self.worker_for(load).await.map_err(LlmError::Local)?;
        let Some(worker) = guard.as_mut() else {
            return Err(LlmError::Local(AppError::LocalWorkerCrashed {
                detail: "no worker".into(),
            }));
        };
        let template = Template {
            source: worker.loaded.facts.chat_template.as_deref(),
            bos_token: &worker.loaded.bos_token,
            eos_token: &worker.loaded.eos_token,
        };
        let prompt = template.render(request).map_err(|detail| {
            LlmError::Local(AppError::LocalModelUnusable {
                file: worker.load.path.display().to_string(),
                detail,
            })
        })?;
        let tools = (!request.tools.is_empty()).then(|| ToolGrammar {
            trigger: CALL_TRIGGER.into(),
            closer: CALL_CLOSER.into(),
            tools: request
                .tools
                .iter()
                .map(|t| (t.name.clone(), t.parameters.clone()))
                .collect(),
            required: request.tool_choice == ToolChoice::Required,
        });
        let generate = Generate {
            prompt,
            max_tokens: request.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
            temperature: request.temperature.unwrap_or(0.0),
            tools,
        };
        if let Err(error) = worker.send(&Request::Generate(generate)).await {
            guard.take();
            return Err(LlmError::Local(error));
        }
        let names = request.tools.iter().map(|t| t.name.clone()).collect();
        let models = self.clone();
        Ok(reply::events(guard, names, move || models.arm_idle_timer()))
    }

    async fn context_window(&self, model: &str) -> Option<u64> {
        let described = self.catalog().describe(model).await.ok()?;
        let setting = u64::from(self.settings().context_length);
        let run = described.run_context?;
        Some(if setting > 0 {
            setting.min(described.context_length.unwrap_or(setting))
        } else {
            run
        })
    }

    async fn list_models(&self) -> Result<Vec<ModelInfo>, LlmError> {
        Ok(self
            .catalog()
            .list()
            .await
            .into_iter()
            .filter(|m| m.problem.is_none())
            .map(|m| ModelInfo {
                context_window: Some(m.run_context.unwrap_or(RUN_CONTEXT)),
                id: m.name,
            })
            .collect())
    }
}
