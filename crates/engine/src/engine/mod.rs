//! The engine facade: sessions and the turn loop (commit the user message, stream a reply, run
//! its tool calls, repeat until the model stops, the iteration limit, or cancellation).

mod context;
mod options;
mod turn;
mod turn_loop;

pub use options::EngineOptions;

use std::path::PathBuf;
use std::sync::Arc;

use hearth_llm::SharedModelClient;
use hearth_protocol::{EngineEvent, Session, Text, TurnEnd, Usage};
use hearth_store::{Db, NewSession};

use crate::agents::Agents;
use crate::tool_calls::ToolRunner;
use crate::turns::Turns;
use crate::EngineError;

/// Receives a turn's progress.
pub type EventSink = dyn Fn(EngineEvent) + Send + Sync;

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

    async fn session(&self, session_id: &str) -> Result<Session, EngineError> {
        let id = session_id.to_string();
        self.db
            .read(move |store| store.get_session(&id))
            .await?
            .ok_or_else(|| EngineError::UnknownSession(session_id.to_string()))
    }
}
