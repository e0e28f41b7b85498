//! A skill run's side of the tool runner: only the tools the skill declares are offered, and a
//! call outside its declaration is refused `not_permitted` and audited.

use hearth_policy::SkillGrant;
use hearth_protocol::{AuditReason, ToolCall};
use hearth_store::AuditDecision;
use hearth_tools::{ErrorKind, ToolError};
use std::sync::Arc;

use super::{CallScope, ToolRunner, Verdict};
use crate::EngineError;

impl ToolRunner {
    /// Serves a skill run: tools outside `grant`'s declaration are not offered, and a call to
    /// one is refused `not_permitted` naming the skill and its declaration (audited). It only
    /// narrows what the profiles and policy allow.
    pub fn with_skill_grant(mut self, grant: SkillGrant) -> ToolRunner {
        let registry = Arc::clone(&self.registry);
        self.specs.retain(|name| {
            registry
                .facts(name)
                .is_some_and(|facts| grant.permits(&facts, name).is_ok())
        });
        self.skill_grant = Some(grant);
        self
    }

    /// In a skill run, the refusal of a call its skill does not declare (audited), if it is one.
    pub(super) async fn outside_skill(
        &self,
        scope: &CallScope<'_>,
        call: &ToolCall,
    ) -> Result<Option<Verdict>, EngineError> {
        let (Some(grant), Some(facts)) = (&self.skill_grant, self.registry.facts(&call.name))
        else {
            return Ok(None);
        };
        let Err(refusal) = grant.permits(&facts, &call.name) else {
            return Ok(None);
        };
        self.audit(
            scope,
            call,
            AuditDecision::Deny,
            Some(AuditReason::new(*refusal.reason.clone())),
            format!("skill {}", grant.skill),
        )
        .await?;
        Ok(Some(Verdict::Refuse(ToolError::new(
            ErrorKind::NotPermitted,
            refusal.reason.to_string(),
        ))))
    }
}
