//! From what a delegation tool asked to a child ready to run: its tool set (what was asked and
//! the parent has, never the delegation tools unless nesting is allowed), profile, model,
//! options and run row; then the caps are checked, the rows written and the children spawned.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use hearth_llm::SharedModelClient;
use hearth_policy::{catalogue, ToolProfile};
use hearth_protocol::{AgentPersona, Settings, SubAgentMode, SubAgentRun, SubAgentStatus};
use hearth_store::{AgentRunEnd, DbError, NewAgentRun, NewSession, Store};
use hearth_tools::{ErrorKind, ToolError};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::{Agents, ParentTurn};
use crate::engine::EngineOptions;

/// Canonical names of the tools that start children.
const DELEGATION: [&str; 3] = [
    catalogue::DELEGATE_TASK.name,
    catalogue::SPAWN_TASK.name,
    catalogue::AGENTS_ROUTE.name,
];

/// What every child is told before its persona's instructions.
const CHILD_INSTRUCTIONS: &str = "You are a sub-agent: another agent gave you one task. Work \
     on it with your tools, then give your result as your final message: it is all the other \
     agent receives. Nobody reads your messages meanwhile, so do not ask questions; if you \
     cannot finish, say what you found and what is missing.";

/// One child a tool asks for.
pub(crate) struct ChildSpec {
    /// What the child is for, as its card and its run row show it.
    pub goal: String,
    /// Its first (and only) user message.
    pub prompt: String,
    /// Tools asked for, by the names the parent calls them; `None`: all of the parent's.
    pub tools: Option<Vec<String>>,
    /// A narrower tool profile than the parent's.
    pub profile: Option<ToolProfile>,
    pub persona: Option<AgentPersona>,
    /// `None`: the parent's limit.
    pub max_iterations: Option<u32>,
    /// `None`: the `[subagents]` default.
    pub timeout: Option<Duration>,
    pub mode: SubAgentMode,
}

/// A child about to start.
pub(crate) struct Prepared {
    pub new_run: NewAgentRun,
    pub prompt: String,
    pub client: SharedModelClient,
    pub allowed: HashSet<String>,
    pub options: EngineOptions,
    /// Whether the child may start children of its own.
    pub nested: bool,
}

/// A started child: its run row, and its task that ends with the stored run.
pub(crate) struct Started {
    pub run: SubAgentRun,
    pub done: JoinHandle<SubAgentRun>,
}

/// Ends runs whose siblings could not be written, so none is left `running`.
fn abandon<'a>(
    store: &Store,
    runs: impl Iterator<Item = &'a SubAgentRun>,
    why: &dyn std::fmt::Display,
) {
    for run in runs {
        let end = AgentRunEnd {
            status: SubAgentStatus::Failed,
            result: String::new(),
            error: Some(format!("not started: {why}")),
            iterations: 0,
            usage: Default::default(),
        };
        if let Err(error) = store.finish_agent_run(&run.id, &end) {
            tracing::error!(%error, run = %run.id, "abandoned sub-agent run not ended");
        }
    }
}

fn internal(error: impl std::fmt::Display) -> ToolError {
    ToolError::new(
        ErrorKind::Internal,
        format!("the sub-agent could not start: {error}"),
    )
}

impl Agents {
    /// Starts the children of `specs` for `parent`, each cancelled with `cancel`, or none of
    /// them when a cap refuses them (`wait_hint` says how to wait).
    pub(crate) async fn start(
        self: &Arc<Self>,
        parent: &Arc<ParentTurn>,
        specs: Vec<ChildSpec>,
        cancel: &CancellationToken,
        wait_hint: &str,
    ) -> Result<Vec<Started>, ToolError> {
        let settings = self.settings();
        let mut prepared = Vec::with_capacity(specs.len());
        for spec in specs {
            prepared.push(self.prepare(parent, spec, &settings).await?);
        }
        // The rows are written while the reservation holds the running children's lock, and
        // the children's tasks start with them: all on the blocking pool, one piece that ends
        // even when this turn is dropped meanwhile (no row is left without its task).
        let (agents, turn) = (Arc::clone(self), Arc::clone(parent));
        let (cancel, wait_hint) = (cancel.clone(), wait_hint.to_string());
        let runtime = tokio::runtime::Handle::current();
        let started = self.db().write(move |store| {
            let wanted = prepared.len();
            let begun = agents.reserve(&turn, wanted, &wait_hint, || {
                let mut begun = Vec::with_capacity(wanted);
                for child in prepared {
                    match store.begin_agent_run(&child.new_run) {
                        Ok(run) => {
                            let token = cancel.child_token();
                            begun.push((run, token.clone(), (child, token)));
                        }
                        Err(error) => {
                            abandon(store, begun.iter().map(|(run, _, _)| run), &error);
                            return Err(internal(error));
                        }
                    }
                }
                Ok(begun)
            });
            let started = begun.map(|begun| {
                begun
                    .into_iter()
                    .map(|(run, (child, token))| {
                        let task = Arc::clone(&agents).run_child(
                            Arc::clone(&turn),
                            run.clone(),
                            child,
                            token,
                        );
                        Started {
                            run,
                            done: runtime.spawn(task),
                        }
                    })
                    .collect()
            });
            Ok::<_, DbError>(started)
        });
        started.await.map_err(internal)?
    }

    async fn prepare(
        &self,
        parent: &ParentTurn,
        spec: ChildSpec,
        settings: &Settings,
    ) -> Result<Prepared, ToolError> {
        let persona = spec.persona.as_ref();
        let profile = [
            Some(parent.profile),
            spec.profile,
            persona.and_then(|p| p.tool_profile),
        ]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(parent.profile);
        let (client, model_name) = match persona.map(|p| p.model.trim()).filter(|m| !m.is_empty()) {
            Some(requested) => self.persona_model(settings, requested).await?,
            None => (parent.model.clone(), parent.model_name.clone()),
        };
        let nested = parent.options.depth + 1 < settings.subagents.max_depth;
        let asked: Option<HashSet<&str>> = spec
            .tools
            .as_ref()
            .map(|tools| tools.iter().map(String::as_str).collect());
        let allowed: HashSet<String> = parent
            .tools
            .specs(profile)
            .iter()
            .map(|s| s.name.clone())
            .filter(|name| {
                asked
                    .as_ref()
                    .is_none_or(|asked| asked.contains(name.as_str()))
            })
            .filter(|name| nested || !self.is_delegation(parent, name))
            .collect();
        let mut tools: Vec<String> = allowed.iter().cloned().collect();
        tools.sort_unstable();
        let mut instructions = CHILD_INSTRUCTIONS.to_string();
        if let Some(prompt) = persona
            .map(|p| p.system_prompt.trim())
            .filter(|p| !p.is_empty())
        {
            instructions.push_str("\n\n");
            instructions.push_str(prompt);
        }
        let options = EngineOptions {
            default_model: model_name.clone(),
            max_iterations: spec
                .max_iterations
                .unwrap_or(parent.options.max_iterations)
                .max(1),
            depth: parent.options.depth + 1,
            instructions: Some(instructions),
            ..parent.options.clone()
        };
        let id = uuid::Uuid::new_v4().to_string();
        let timeout = spec
            .timeout
            .unwrap_or(Duration::from_secs(settings.subagents.timeout_secs.max(1)));
        let title = crate::turns::title_from(&spec.goal).unwrap_or_else(|| "sub-agent".into());
        Ok(Prepared {
            new_run: NewAgentRun {
                parent_session_id: parent.session.id.clone(),
                session: NewSession {
                    id: format!("task:{id}"),
                    title,
                    model: Some(model_name.clone()),
                    workspace: parent.session.workspace.clone(),
                    tool_profile: profile.as_str().to_string(),
                },
                id,
                goal: spec.goal,
                mode: spec.mode,
                agent: persona.map(|p| p.name.clone()),
                model: model_name,
                tools,
                max_iterations: options.max_iterations,
                timeout_secs: timeout.as_secs().max(1),
            },
            prompt: spec.prompt,
            client,
            allowed,
            options,
            nested,
        })
    }

    fn is_delegation(&self, parent: &ParentTurn, name: &str) -> bool {
        parent
            .tools
            .facts(name)
            .is_some_and(|facts| DELEGATION.contains(&facts.name.as_str()))
    }

    /// The client of a persona's own model (the keychain is read on a blocking thread).
    async fn persona_model(
        &self,
        settings: &Settings,
        requested: &str,
    ) -> Result<(SharedModelClient, String), ToolError> {
        let Some(models) = self.models.clone() else {
            return Err(ToolError::new(
                ErrorKind::Unavailable,
                format!("this Hearth cannot build the persona's model `{requested}`"),
            ));
        };
        let settings = settings.clone();
        let requested = requested.to_string();
        let choice = tokio::task::spawn_blocking(move || models(&settings, &requested))
            .await
            .map_err(internal)?
            .map_err(|error| ToolError::new(ErrorKind::Unavailable, error.to_string()))?;
        Ok((choice.client, choice.model))
    }
}
