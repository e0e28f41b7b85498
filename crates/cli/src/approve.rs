//! Approvals on the command line: `--approve` / `--deny`, else a prompt on the terminal, else
//! deny (no terminal, or stdin carrying the calls, and no flag). The audit log records which of
//! them answered. The terminal
//! also answers the model's questions (`clarify`): an option's number or any text; without a
//! terminal they are unavailable.

use std::io::{BufRead, IsTerminal, Write};
use std::sync::Arc;

use hearth_engine::{ApprovalRequest, Approver, QuestionRequest};
use hearth_protocol::ApprovalDecision;

use crate::ApprovalArgs;

/// Asks on the terminal (stderr prompt, stdin answer).
struct TerminalApprover;

#[async_trait::async_trait]
impl Approver for TerminalApprover {
    async fn decide(&self, request: &ApprovalRequest) -> Option<ApprovalDecision> {
        let prompt = format!(
            "\nHearth wants to run {} with {}\n  ({})\nAllow? [y] once / [s] for this session / \
             [w] once with the network / [u] once outside the sandbox / [a] once, and sandboxed \
             commands without asking in this session / [o] outside the sandbox for this session \
             / [N] deny: ",
            request.call.name, request.call.arguments, request.reason
        );
        let line = read_answer(prompt).await?;
        Some(match line.to_lowercase().as_str() {
            "y" | "yes" => ApprovalDecision::AllowOnce,
            "s" | "session" => ApprovalDecision::AllowSession,
            "w" | "network" => ApprovalDecision::AllowWithNetwork,
            "u" | "unsandboxed" => ApprovalDecision::AllowUnsandboxed,
            "a" | "all" => ApprovalDecision::AllowSandboxedInChat,
            "o" | "outside" => ApprovalDecision::AllowUnsandboxedInChat,
            _ => ApprovalDecision::Deny,
        })
    }

    fn answers_questions(&self) -> bool {
        true
    }

    async fn answer(&self, question: &QuestionRequest) -> Option<String> {
        let mut prompt = format!("\nHearth asks: {}\n", question.question);
        for (i, option) in question.options.iter().enumerate() {
            prompt.push_str(&format!("  [{}] {option}\n", i + 1));
        }
        prompt.push_str(if question.options.is_empty() {
            "Your answer: "
        } else {
            "Your answer (a number or your own words): "
        });
        let options = question.options.clone();
        let line = read_answer(prompt).await?;
        Some(chosen(&options, &line))
    }
}

/// Prints `prompt` on stderr and reads one line from stdin (`None` at end of input).
async fn read_answer(prompt: String) -> Option<String> {
    tokio::task::spawn_blocking(move || {
        let mut stderr = std::io::stderr();
        let _ = stderr.write_all(prompt.as_bytes());
        let _ = stderr.flush();
        let mut line = String::new();
        match std::io::stdin().lock().read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim().to_string()),
        }
    })
    .await
    .ok()
    .flatten()
}

/// The option a typed number picks, else the typed text itself.
fn chosen(options: &[String], line: &str) -> String {
    line.parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| options.get(i))
        .cloned()
        .unwrap_or_else(|| line.to_string())
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

#[cfg(test)]
mod tests {
    use super::chosen;

    #[test]
    fn a_number_picks_its_option_and_anything_else_is_the_answer() {
        let options = ["PDF".to_string(), "Word".to_string()];
        assert_eq!(chosen(&options, "2"), "Word");
        assert_eq!(chosen(&options, "3"), "3");
        assert_eq!(chosen(&options, "0"), "0");
        assert_eq!(chosen(&options, "plain text"), "plain text");
        assert_eq!(chosen(&[], "1"), "1");
    }
}
