//! Approvals on the command line: `--approve` / `--deny`, else a prompt on the terminal, else
//! deny (no terminal and no flag).

use std::io::{BufRead, IsTerminal, Write};
use std::sync::Arc;

use hearth_engine::{ApprovalRequest, Approver, FixedApprover};
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

/// The approver the flags and the terminal call for.
pub fn approver(args: ApprovalArgs) -> Arc<dyn Approver> {
    if args.approve {
        Arc::new(FixedApprover(ApprovalDecision::AllowOnce))
    } else if args.deny || !std::io::stdin().is_terminal() {
        Arc::new(FixedApprover(ApprovalDecision::Deny))
    } else {
        Arc::new(TerminalApprover)
    }
}
