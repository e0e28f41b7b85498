//! What a call can reach of the turn it runs in: the front end's live view of the session and the
//! person at it, to ask a question. Calls without one (scheduled runs under `daemon`, direct
//! calls) have nobody to show or ask.

use async_trait::async_trait;
use hearth_protocol::{EngineEvent, Language};

use crate::form::{ask_fields, Form, FormReply};

/// A question for the user: free text, with options shown as buttons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    pub question: String,
    pub options: Vec<String>,
}

/// How a question ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    Answered(String),
    /// Nobody answered within the front end's time limit.
    NoAnswer,
    /// Nobody can answer here (no window, no terminal).
    Unavailable,
}

/// The turn's front end, as a tool sees it.
#[async_trait]
pub trait Conversation: Send + Sync {
    /// The language the person at the front end reads (the questions Hearth words itself, such
    /// as a form's, are asked in it).
    fn language(&self) -> Language;

    /// Shows a change of the session's state (its checklist…) in the front end.
    fn show(&self, event: EngineEvent);

    /// Asks the user and waits for the answer (the call's cancellation abandons the wait).
    async fn ask(&self, question: Question) -> Reply;

    /// Asks the user to fill in `form` (an MCP server's elicitation); by default as one
    /// question per field.
    async fn fill(&self, form: Form) -> FormReply {
        ask_fields(self, self.language(), &form).await
    }
}
