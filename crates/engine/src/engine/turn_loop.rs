//! The turn loop: build the request, stream the reply, run its tool calls and store their
//! results, until the model stops, the iteration limit, or cancellation.

use std::sync::Arc;

use hearth_llm::ChatRequest;
use hearth_protocol::{EngineEvent, Message, Role, Session, ToolResult, TurnEnd, Usage};
use hearth_store::NewMessage;
use tokio_util::sync::CancellationToken;

use super::{Engine, EventSink, TurnSummary};
use crate::compact::{Compacted, Room};
use crate::tool_calls::CallScope;
use crate::EngineError;

impl Engine {
    pub(super) async fn run_loop(
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
