//! Running judged calls: concurrently when all are read-only, else one after another, with
//! what the tools show or ask relayed to the turn's events.

use std::sync::Arc;
use std::time::Instant;

use hearth_policy::SecurityProfile;
use hearth_protocol::{EngineEvent, ToolCall, ToolResult};
use hearth_tools::{call_views, Conversation, ToolContext, ToolError};
use tokio_util::sync::CancellationToken;

use super::conversation::TurnConversation;
use super::{CallScope, EventSink, ToolRunner, Verdict};
use crate::EngineError;

impl ToolRunner {
    /// Judges every call (in order, asking the user when needed), then runs the permitted ones:
    /// concurrently when all of them are read-only, else one after another. Results come back in
    /// call order.
    pub async fn run_calls(
        &self,
        scope: &CallScope<'_>,
        message_id: i64,
        calls: &[ToolCall],
        sink: &EventSink,
        cancel: &CancellationToken,
    ) -> Result<Vec<ToolResult>, EngineError> {
        let mut verdicts = Vec::with_capacity(calls.len());
        for call in calls {
            sink(EngineEvent::ToolCallStarted {
                message_id,
                call: call.clone(),
                views: call_views(self.canonical(&call.name).as_deref(), &call.arguments),
            });
            verdicts.push(self.judge(scope, call, sink).await?);
        }
        let (events, mut shown) = tokio::sync::mpsc::unbounded_channel();
        // Nobody attends a run under `daemon`: nothing to show, nobody to ask.
        let conversation = (self.security != SecurityProfile::Daemon).then(|| {
            Arc::new(TurnConversation {
                session_id: scope.session_id.to_string(),
                events,
                approver: self.approver.clone(),
                timeout: self.question_timeout,
                language: scope.language,
            }) as Arc<dyn Conversation>
        });
        let ctx = ToolContext {
            workspace: scope.workspace.to_path_buf(),
            data_dir: self.data_dir.clone(),
            session_id: scope.session_id.to_string(),
            cancel: cancel.child_token(),
            images: Default::default(),
            conversation,
            sandbox: self.sandbox.clone(),
        };
        let work = self.run_judged(calls, verdicts, &ctx);
        tokio::pin!(work);
        let results = loop {
            tokio::select! {
                results = &mut work => break results,
                Some(event) = shown.recv() => sink(event),
            }
        };
        while let Ok(event) = shown.try_recv() {
            sink(event);
        }
        Ok(results)
    }

    /// Runs the judged calls: concurrently when all of them are read-only, else one after
    /// another; results in call order.
    async fn run_judged(
        &self,
        calls: &[ToolCall],
        verdicts: Vec<Verdict>,
        ctx: &ToolContext,
    ) -> Vec<ToolResult> {
        let read_only = verdicts
            .iter()
            .all(|verdict| matches!(verdict, Verdict::Run(prepared, _) if !prepared.facts.mutates));
        if read_only && calls.len() > 1 {
            return futures::future::join_all(
                calls
                    .iter()
                    .zip(verdicts)
                    .map(|(call, verdict)| self.settle(call, verdict, ctx)),
            )
            .await;
        }
        let mut results = Vec::with_capacity(calls.len());
        for (call, verdict) in calls.iter().zip(verdicts) {
            results.push(self.settle(call, verdict, ctx).await);
        }
        results
    }

    /// Runs a permitted call, or reports the refusal.
    async fn settle(&self, call: &ToolCall, verdict: Verdict, ctx: &ToolContext) -> ToolResult {
        let (prepared, widened) = match verdict {
            Verdict::Run(prepared, widened) => (prepared, widened),
            Verdict::Refuse(error) => return error_result(call, &error, 0),
        };
        let started = Instant::now();
        let mut ctx = ctx.for_call();
        ctx.sandbox = self.call_sandbox(&ctx.session_id, call, &prepared.facts);
        if let Some(widened) = widened {
            widened.apply(&mut ctx.sandbox);
        }
        let outcome = self.registry.run(prepared, &ctx).await;
        let duration_ms = started.elapsed().as_millis() as u64;
        match outcome {
            Ok(value) => ToolResult {
                call_id: call.id.clone(),
                name: call.name.clone(),
                content: value.to_string(),
                is_error: false,
                duration_ms,
                images: ctx.images.take(),
                views: Vec::new(),
            },
            Err(error) => error_result(call, &error, duration_ms),
        }
    }
}

fn error_result(call: &ToolCall, error: &ToolError, duration_ms: u64) -> ToolResult {
    ToolResult {
        call_id: call.id.clone(),
        name: call.name.clone(),
        content: error.to_json().to_string(),
        is_error: true,
        duration_ms,
        images: Vec::new(),
        views: Vec::new(),
    }
}
