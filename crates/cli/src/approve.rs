//! Approvals on the command line: `--approve` / `--deny`, else a prompt on the terminal, else
//! deny (no terminal, or stdin carrying the calls, and no flag). The audit log records which of
//! them answered.

use std::io::{BufRead, IsTerminal, Write};
use std::sync::Arc;

use hearth_engine::{ApprovalRequest, Approver};
use hearth_protocol::ApprovalDecision;

use crate::ApprovalArgs;

/// Asks on the terminal (stderr prompt, stdin answer).
struct TerminalApprover;

#[async_trait::async_trait]
impl Approver for TerminalApprover {
    async fn decide(&self, request: &ApprovalRequest) -> Option<ApprovalDecision> {
        let prompt = format!(
            "\nHearth wants to run {} with {}\n  ({})\nAllow? [y] once / [s] for this session / [N] deny: ",
            request.call.name, request.call.arguments, request.reason
        );
        tokio::task::spawn_blocking(move || {
            let mut stderr = std::io::stderr();
            let _ = stderr.write_all(prompt.as_bytes());
            let _ = stderr.flush();
            let mut line = String::new();
            std::io::stdin().lock().read_line(&mut line).ok()?;
            Some(match line.trim().to_lowercase().as_str() {
                "y" | "yes" => ApprovalDecision::AllowOnce,
                "s" | "session" => ApprovalDecision::AllowSession,
                _ => ApprovalDecision::Deny,
            })
        })
        .await
        .ok()
        .flatten()
    }
}

/// An answer given without asking: a flag, or the deny that stands in when nobody can answer.
struct Answered {
    decision: ApprovalDecision,
    /// The audit log's actor: `cli --approve`, `cli --deny` or `cli (no terminal)`.
    actor: &'static str,
}

#[async_trait::async_trait]
impl Approver for Answered {
    async fn decide(&self, _request: &ApprovalRequest) -> Option<ApprovalDecision> {
        Some(self.decision)
    }

    fn actor(&self) -> &'static str {
        self.actor
    }
}

/// Whether stdin is free to answer approval prompts, or carries the calls themselves
/// (`tools batch -`), in which case a call needing approval without a flag is denied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stdin {
    Free,
    CarriesCalls,
}

/// The approver the flags and the terminal call for.
pub fn approver(args: ApprovalArgs, stdin: Stdin) -> Arc<dyn Approver> {
    let answered = |decision, actor| Arc::new(Answered { decision, actor });
    if args.approve {
        answered(ApprovalDecision::AllowOnce, "cli --approve")
    } else if args.deny {
        answered(ApprovalDecision::Deny, "cli --deny")
    } else if stdin == Stdin::CarriesCalls || !std::io::stdin().is_terminal() {
        answered(ApprovalDecision::Deny, "cli (no terminal)")
    } else {
        Arc::new(TerminalApprover)
    }
}
