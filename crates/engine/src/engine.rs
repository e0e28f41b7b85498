//! The engine facade: sessions and the turn loop (commit the user message, stream a reply, run
//! its tool calls, repeat until the model stops, the iteration limit, or cancellation).

use crate::compact::Room;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use hearth_llm::{ChatRequest, SharedModelClient};
use hearth_policy::ToolProfile;
use hearth_protocol::{
    ContentPart, EngineEvent, Language, Message, MessageKind, Role, Session, Settings, Text,
    ToolResult, TurnEnd, Usage,
};
use hearth_store::{Db, NewMessage, NewSession};
use tokio_util::sync::CancellationToken;

use crate::agents::{Agents, ParentTurn};
use crate::compact::Compacted;
use crate::tool_calls::{CallScope, ToolRunner};
use crate::turns::{BegunTurn, Turns};
use crate::EngineError;
use hearth_core::DataDir;

/// Tokens of the system prompt given to remembered facts.
const MEMORY_TOKEN_BUDGET: usize = 1_000;

/// Receives a turn's progress.
pub type EventSink = dyn Fn(EngineEvent) + Send + Sync;

/// Knobs of the engine, passed explicitly by the composition root.
#[derive(Debug, Clone)]
pub struct EngineOptions {
    pub data_dir: DataDir,
    /// Model used when a session names none.
    pub default_model: String,
    pub tool_profile: ToolProfile,
    pub max_iterations: u32,
    /// The context window of a model without one of its own in `model_windows`.
    pub context_window: u64,
    /// Context windows by model name (what the provider reported, or the user's override): a
    /// session with its own model is measured against that model's window.
    pub model_windows: BTreeMap<String, u64>,
    /// The language of the titles the engine gives chats.
    pub language: Language,
    /// How often streamed text is written to the store (at most one second).
    pub flush_interval: Duration,
    /// A reply whose stream sends nothing for this long fails as stalled (the default, five
    /// minutes, leaves room for slow reasoning models before their first token).
    pub stream_idle_timeout: Duration,
    /// Added to the system prompt (a sub-agent's instructions, its persona's prompt).
    pub instructions: Option<String>,
    /// How deep this engine's turns are nested: 0 for a chat, 1 for its sub-agents.
    pub depth: u32,
}

impl EngineOptions {
    pub fn new(data_dir: DataDir, default_model: impl Into<String>) -> EngineOptions {
        EngineOptions {
            data_dir,
            default_model: default_model.into(),
            tool_profile: ToolProfile::Full,
            max_iterations: 50,
            context_window: 128_000,
            model_windows: BTreeMap::new(),
            language: Language::En,
            flush_interval: Duration::from_millis(500),
            stream_idle_timeout: Duration::from_secs(300),
            instructions: None,
            depth: 0,
        }
    }

    /// [`EngineOptions::new`] with the tool profile and limits of `settings` (its context
    /// windows, per model and default).
    pub fn from_settings(
        data_dir: DataDir,
        default_model: impl Into<String>,
        settings: &Settings,
    ) -> EngineOptions {
        let default_model = default_model.into();
        EngineOptions {
            tool_profile: settings.tool_profile,
            max_iterations: settings.max_iterations.max(1),
            context_window: settings.context_window,
            model_windows: settings.model_context_windows.clone(),
            language: settings.language,
            ..EngineOptions::new(data_dir, default_model)
        }
    }
}

impl EngineOptions {
    /// The context window of `model`: its own entry, else the default.
    pub fn window_of(&self, model: &str) -> u64 {
        self.model_windows
            .get(model)
            .copied()
            .filter(|&tokens| tokens > 0)
            .unwrap_or(self.context_window)
    }
}

/// How a turn went.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnSummary {
    pub session_id: String,
    pub iterations: u32,
    pub usage: Usage,
    pub end: TurnEnd,
}

/// The engine. Cheap to share behind an `Arc`.
pub struct Engine {
    pub(crate) db: Db,
    pub(crate) model: SharedModelClient,
    pub(crate) tools: Arc<ToolRunner>,
    pub(crate) options: EngineOptions,
    turns: Arc<Turns>,
    agents: Option<Arc<Agents>>,
}

impl Engine {
    /// An engine over `db` (an `Arc<Store>` becomes a [`Db`] of its own).
    pub fn new(
        db: impl Into<Db>,
        model: SharedModelClient,
        tools: Arc<ToolRunner>,
        options: EngineOptions,
    ) -> Engine {
        let db = db.into();
        Engine {
            turns: Turns::new(db.clone()),
            db,
            model,
            tools,
            options,
            agents: None,
        }
    }

    /// Lets this engine's turns start sub-agents in `agents` (the delegation tools of its
    /// registry find the turn there).
    pub fn with_agents(mut self, agents: Arc<Agents>) -> Engine {
        self.agents = Some(agents);
        self
    }

    /// The sub-agent runtime this engine's turns use.
    pub fn agents(&self) -> Option<&Arc<Agents>> {
        self.agents.as_ref()
    }

    /// Shares `turns` (the front end's long-lived registry) instead of a registry of its own.
    pub fn with_turns(mut self, turns: Arc<Turns>) -> Engine {
        self.turns = turns;
        self
    }

    /// The running turns this engine registers its turns in.
    pub fn turns(&self) -> &Arc<Turns> {
        &self.turns
    }

    /// The store, reached from async code through [`Db`].
    pub fn db(&self) -> &Db {
        &self.db
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    pub fn tools(&self) -> &Arc<ToolRunner> {
        &self.tools
    }

    /// Creates a session with id `<channel>:<uuid>`.
    pub async fn create_session(
        &self,
        channel: &str,
        title: Option<&str>,
    ) -> Result<Session, EngineError> {
        let new = self.new_session(channel, title);
        Ok(self
            .db
            .write(move |store| store.create_session(&new))
            .await?)
    }

    /// What [`Engine::create_session`] stores: a session with id `<channel>:<uuid>`, titled
    /// `title` or "New chat", under this engine's tool profile.
    pub fn new_session(&self, channel: &str, title: Option<&str>) -> NewSession {
        NewSession {
            id: format!("{channel}:{}", uuid::Uuid::new_v4()),
            title: title.map_or_else(
                || Text::NewChat.in_language(self.options.language),
                str::to_string,
            ),
            model: None,
            workspace: None,
            tool_profile: self.options.tool_profile.as_str().to_string(),
        }
    }

    /// The workspace folder a session's tools work in.
    pub fn workspace_of(&self, session: &Session) -> PathBuf {
        session
            .workspace
            .as_ref()
            .map(PathBuf::from)
            .unwrap_or_else(|| self.options.data_dir.workspace())
    }

    /// Runs one user turn: the user message is committed before the model is called.
    pub async fn send(
        &self,
        session_id: &str,
        content: Vec<ContentPart>,
        sink: &EventSink,
        cancel: CancellationToken,
    ) -> Result<TurnSummary, EngineError> {
        let begun = self
            .turns
            .commit(session_id, content, cancel.clone())
            .await?;
        self.answer(begun, sink, cancel).await
    }

    /// Runs the turn of a user message already committed with [`Turns::commit`] (the app
    /// commits it before building the engine, so a missing provider keeps the message).
    pub async fn answer(
        &self,
        begun: BegunTurn,
        sink: &EventSink,
        cancel: CancellationToken,
    ) -> Result<TurnSummary, EngineError> {
        self.drive(&begun.session, begun.user.id, sink, &cancel)
            .await
    }

    /// Replaces the last reply: removes everything after the last user message and runs the
    /// turn again from there.
    pub async fn regenerate(
        &self,
        session_id: &str,
        sink: &EventSink,
        cancel: CancellationToken,
    ) -> Result<TurnSummary, EngineError> {
        let session = self.session(session_id).await?;
        let _running = self.turns.begin(session_id, cancel.clone()).await?;
        let id = session_id.to_string();
        let messages = self.db.read(move |store| store.list_messages(&id)).await?;
        let last_user = messages
            .into_iter()
            .rev()
            .find(|m| m.role == Role::User && m.kind == MessageKind::Normal)
            .ok_or(EngineError::NothingToRegenerate)?;
        let (id, after) = (session_id.to_string(), last_user.id);
        self.db
            .write(move |store| store.delete_messages_after(&id, after))
            .await?;
        self.drive(&session, last_user.id, sink, &cancel).await
    }

    async fn session(&self, session_id: &str) -> Result<Session, EngineError> {
        let id = session_id.to_string();
        self.db
            .read(move |store| store.get_session(&id))
            .await?
            .ok_or_else(|| EngineError::UnknownSession(session_id.to_string()))
    }

    /// Runs the loop for a committed user message, reporting start and end as events.
    async fn drive(
        &self,
        session: &Session,
        user_message_id: i64,
        sink: &EventSink,
        cancel: &CancellationToken,
    ) -> Result<TurnSummary, EngineError> {
        sink(EngineEvent::TurnStarted {
            session_id: session.id.clone(),
            user_message_id,
        });
        let outcome = match &self.agents {
            None => self.run_loop(session, user_message_id, sink, cancel).await,
            Some(agents) => {
                let (relay, relayed) = tokio::sync::mpsc::unbounded_channel();
                let parent = agents.enter(self.parent_turn(session, relay)?);
                let work = self.run_loop(session, user_message_id, sink, cancel);
                let mut outcome = crate::agents::pump(relayed, sink, work).await;
                if let Ok(summary) = &mut outcome {
                    summary.usage.add(parent.turn().child_usage());
                }
                outcome
            }
        };
        match &outcome {
            Ok(summary) => sink(EngineEvent::TurnFinished {
                session_id: session.id.clone(),
                iterations: summary.iterations,
                usage: summary.usage,
                reason: summary.end,
            }),
            Err(e) => sink(EngineEvent::TurnFailed {
                session_id: session.id.clone(),
                error: e.into(),
            }),
        }
        outcome
    }

    /// What this turn in `session` lends the sub-agents it starts.
    fn parent_turn(
        &self,
        session: &Session,
        relay: tokio::sync::mpsc::UnboundedSender<EngineEvent>,
    ) -> Result<ParentTurn, EngineError> {
        Ok(ParentTurn::new(
            session.clone(),
            self.model.clone(),
            self.session_model(session),
            Arc::clone(&self.tools),
            self.options.clone(),
            self.session_profile(session)?,
            relay,
        ))
    }

    fn session_model(&self, session: &Session) -> String {
        session
            .model
            .clone()
            .unwrap_or_else(|| self.options.default_model.clone())
    }

    /// Sessions store the profile they were created with; a value Hearth did not write is
    /// refused rather than read as some other profile.
    fn session_profile(&self, session: &Session) -> Result<ToolProfile, EngineError> {
        session
            .tool_profile
            .parse()
            .map_err(|error| EngineError::Config(format!("session '{}': {error}", session.id)))
    }

    async fn run_loop(
        &self,
        session: &Session,
        user_message_id: i64,
        sink: &EventSink,
        cancel: &CancellationToken,
    ) -> Result<TurnSummary, EngineError> {
        let model = self.session_model(session);
        let profile = self.session_profile(session)?;
        let workspace = self.workspace_of(session);
        let window = self.window(&model).await;
        let tools = self.fitting_tools(profile, window);
        let tools_tokens = crate::compact::tools_tokens(&tools);
        let memories = self.prompt_memories(user_message_id).await?;
        let skills = self.skills_catalogue(&workspace, &tools);
        let mut usage = Usage::default();
        let summary = |iterations, end, usage| TurnSummary {
            session_id: session.id.clone(),
            iterations,
            usage,
            end,
        };
        let mut stored: Vec<Message> = Vec::new();
        for iteration in 1..=self.options.max_iterations {
            if cancel.is_cancelled() {
                return Ok(summary(iteration - 1, TurnEnd::Cancelled, usage));
            }
            let mut system = crate::prompt::system_prompt(
                chrono::Local::now(),
                &workspace,
                &memories,
                skills.as_deref(),
            );
            if let Some(instructions) = &self.options.instructions {
                system.push_str("\n\n");
                system.push_str(instructions);
            }
            // The history read once, then only what each iteration added.
            let seen = stored.last().map_or(0, |m| m.id);
            let id = session.id.clone();
            let added = self
                .db
                .read(move |store| store.list_messages_after(&id, seen))
                .await?;
            stored.extend(added);
            let overhead = tools_tokens + hearth_protocol::estimate_tokens(&system) as u64;
            if iteration == 1 {
                self.check_fits(&stored, user_message_id, window, overhead)?;
            }
            let compaction = self
                .compact_if_needed(
                    session,
                    &model,
                    Room { window, overhead },
                    stored,
                    sink,
                    cancel,
                )
                .await?;
            let Compacted::Ready(compacted, history) = compaction else {
                return Ok(summary(iteration - 1, TurnEnd::Cancelled, usage));
            };
            stored = compacted;
            let request = ChatRequest {
                model: model.clone(),
                system,
                messages: history,
                tools: Arc::clone(&tools),
                max_tokens: None,
                temperature: None,
                tool_choice: hearth_llm::ToolChoice::Auto,
            };
            let response = self
                .stream_response(&session.id, &request, sink, cancel)
                .await?;
            usage.add(response.usage);
            if response.cancelled {
                return Ok(summary(iteration, TurnEnd::Cancelled, usage));
            }
            if response.tool_calls.is_empty() {
                return Ok(summary(iteration, TurnEnd::Completed, usage));
            }
            let scope = CallScope {
                session_id: &session.id,
                workspace: &workspace,
                profile,
                language: self.options.language,
            };
            let results = self
                .tools
                .run_calls(
                    &scope,
                    response.message_id,
                    &response.tool_calls,
                    sink,
                    cancel,
                )
                .await?;
            self.store_results(&session.id, &response, results, sink)
                .await?;
            if cancel.is_cancelled() {
                return Ok(summary(iteration, TurnEnd::Cancelled, usage));
            }
        }
        Ok(summary(
            self.options.max_iterations,
            TurnEnd::MaxIterations,
            usage,
        ))
    }

    /// `model`'s context window: the settings' (what was learnt when it was chosen, or the
    /// user's override), else what the provider knows, else the settings' default.
    async fn window(&self, model: &str) -> u64 {
        match self.options.model_windows.get(model).copied() {
            Some(tokens) if tokens > 0 => tokens,
            _ => match self.model.context_window(model).await {
                Some(tokens) if tokens > 0 => tokens,
                _ => self.options.context_window,
            },
        }
    }

    /// The tools of `profile`; for Hearth's own models, those of the largest profile (at most
    /// `profile`) whose definitions take at most a quarter of `window`, none if even the smallest
    /// takes more: a small local model's 8k context would otherwise be filled by the full set's
    /// ~18k tokens of definitions. A server's model gets the profile as it is (compaction and
    /// the "too long" errors handle its window).
    fn fitting_tools(&self, profile: ToolProfile, window: u64) -> Arc<[hearth_llm::ToolSpec]> {
        if !self.model.kind().in_process() {
            return self.tools.specs(profile);
        }
        let fits =
            |specs: &Arc<[hearth_llm::ToolSpec]>| crate::compact::tools_tokens(specs) <= window / 4;
        let narrower = ToolProfile::ALL.into_iter().rev().filter(|p| *p <= profile);
        for candidate in narrower {
            let specs = self.tools.specs(candidate);
            if fits(&specs) {
                if candidate != profile {
                    tracing::info!(%profile, offered = %candidate, window, "tools narrowed to fit the context window");
                }
                return specs;
            }
        }
        tracing::info!(%profile, window, "no tools offered: even the smallest set would not fit the context window");
        Arc::from(Vec::new())
    }

    /// Refuses, before the model is called, a user message that cannot fit the model's window
    /// even alone with the system prompt and the tools: compaction folds only older messages,
    /// so it cannot help. A history that is merely long is left to compaction.
    fn check_fits(
        &self,
        stored: &[Message],
        user_message_id: i64,
        window: u64,
        overhead: u64,
    ) -> Result<(), EngineError> {
        let Some(user) = stored.iter().find(|m| m.id == user_message_id) else {
            return Ok(());
        };
        let tokens =
            crate::history::estimate_tokens(&crate::history::to_chat_messages(&[user])) + overhead;
        if tokens > window {
            return Err(EngineError::MessageTooLong { tokens, window });
        }
        Ok(())
    }

    /// The skill catalogue for the system prompt, when this turn is offered a tool that loads
    /// skills (`skill_view`, `get_skill`) and skills are switched on; `None` costs the turn nothing.
    fn skills_catalogue(
        &self,
        workspace: &std::path::Path,
        tools: &[hearth_llm::ToolSpec],
    ) -> Option<String> {
        if !tools
            .iter()
            .any(|t| t.name == "skill_view" || t.name == "get_skill")
        {
            return None;
        }
        let roots = hearth_skills::SkillRoots {
            data_dir: self.options.data_dir.root().to_path_buf(),
            workspace: Some(workspace.to_path_buf()),
        };
        match hearth_skills::Library::load(&roots) {
            Ok(library) => hearth_skills::prompt_catalogue(&library.skills),
            Err(error) => {
                tracing::warn!(%error, "skills left out of the system prompt");
                None
            }
        }
    }

    /// Pinned memories and those relevant to the user message that started the turn, within a
    /// token budget.
    async fn prompt_memories(&self, user_message_id: i64) -> Result<Vec<String>, EngineError> {
        let memories = self
            .db
            .read(move |store| {
                let latest = store
                    .get_message(user_message_id)?
                    .map(|m| m.text())
                    .unwrap_or_default();
                store.pinned_and_relevant(&latest, MEMORY_TOKEN_BUDGET)
            })
            .await?;
        Ok(memories.into_iter().map(|m| m.content).collect())
    }

    /// Stores a response's tool results in one commit, then reports each as finished with the
    /// views its card shows (views are not stored: a loaded page is viewed again).
    async fn store_results(
        &self,
        session_id: &str,
        response: &crate::response::Response,
        results: Vec<ToolResult>,
        sink: &EventSink,
    ) -> Result<(), EngineError> {
        let rows: Vec<NewMessage> = results
            .iter()
            .map(|result| NewMessage {
                tool_result: Some(result.clone()),
                ..NewMessage::new(session_id, Role::Tool, Vec::new())
            })
            .collect();
        self.db
            .write(move |store| store.insert_messages(&rows))
            .await?;
        for result in results {
            sink(EngineEvent::ToolCallFinished {
                message_id: response.message_id,
                result: self.tools.viewed(&response.tool_calls, result),
            });
        }
        Ok(())
    }
}
