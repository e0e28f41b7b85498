//! The agent turn answering an inbound message, in the chat's session under the chat's security
//! profile (nobody approves, so asks are denied).

use std::sync::Arc;

use hearth_policy::SecurityProfile;
use hearth_protocol::{ApprovalDecision, ContentPart, Settings, TurnEnd};
use hearth_store::DbError;
use hearth_tools::channels::Target;
use tokio_util::sync::CancellationToken;

use super::Gateway;
use crate::approval::FixedApprover;
use crate::channels::record;
use crate::jobs::final_answer;

impl Gateway {
    /// The agent's answer to `text` in the chat's session, under `profile`; `None` when
    /// stopped.
    pub(super) async fn turn(
        &self,
        settings: &Settings,
        target: &Target,
        text: &str,
        profile: SecurityProfile,
        cancel: &CancellationToken,
    ) -> Result<Option<String>, String> {
        let session_id = target.to_string();
        let title = format!("{} · {}", target.channel, target.chat_id);
        let id = session_id.clone();
        self.builder
            .db()
            .write(move |store| Ok::<_, DbError>(record::ensure_session(store, &id, &title)))
            .await
            .map_err(|e| e.to_string())??;
        let (choice, registry) = self
            .builder
            .unattended(settings, None)
            .await
            .map_err(|e| e.to_string())?;
        let tools = Arc::new(self.builder.tool_runner(
            Arc::new(registry),
            settings,
            profile,
            Arc::new(FixedApprover(ApprovalDecision::Deny)),
        ));
        let engine = self.builder.engine(settings, choice, tools);
        let prompt = vec![ContentPart::text(text)];
        let summary = engine
            .send(&session_id, prompt, &|_| {}, cancel.child_token())
            .await
            .map_err(|e| e.to_string())?;
        match summary.end {
            TurnEnd::Completed => final_answer(self.builder.db(), &session_id)
                .await
                .map(Some)
                .map_err(|failure| failure.text),
            TurnEnd::Cancelled => Ok(None),
            TurnEnd::MaxIterations => Err(format!(
                "the turn stopped after {} tool iterations without an answer",
                summary.iterations
            )),
        }
    }
}
