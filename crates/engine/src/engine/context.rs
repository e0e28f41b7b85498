//! What a turn's requests are made of besides the history: the model's context window, the
//! tools that fit it, the skill catalogue and the remembered facts of the system prompt.

use std::sync::Arc;

use hearth_policy::ToolProfile;
use hearth_protocol::Message;

use super::Engine;
use crate::EngineError;

/// Tokens of the system prompt given to remembered facts.
const MEMORY_TOKEN_BUDGET: usize = 1_000;

impl Engine {
    /// `model`'s context window: the settings' (what was learnt when it was chosen, or the
    /// user's override), else what the provider knows, else the settings' default.
    pub(super) async fn window(&self, model: &str) -> u64 {
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
    pub(super) fn fitting_tools(
        &self,
        profile: ToolProfile,
        window: u64,
    ) -> Arc<[hearth_llm::ToolSpec]> {
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
    pub(super) fn check_fits(
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
    pub(super) fn skills_catalogue(
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
    pub(super) async fn prompt_memories(
        &self,
        user_message_id: i64,
    ) -> Result<Vec<String>, EngineError> {
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
}
