//! The events a turn emits while it runs, streamed to whoever started it, and how it ends.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{
    AppError, AuditReason, Form, StopReason, SubAgentProgress, TodoList, ToolCall, ToolResult,
    ToolView, Usage,
};

/// Progress of a turn, streamed to whoever started it (the desktop window, the CLI).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EngineEvent {
    /// The user's message is committed to the store.
    TurnStarted {
        session_id: String,
        user_message_id: i64,
    },
    /// A new assistant message row exists and will receive deltas.
    AssistantStarted {
        message_id: i64,
        model: String,
    },
    TextDelta {
        message_id: i64,
        text: String,
    },
    /// The model finished one response (possibly with tool calls).
    AssistantFinished {
        message_id: i64,
        usage: Usage,
        stop_reason: StopReason,
    },
    ToolCallStarted {
        message_id: i64,
        call: ToolCall,
        /// What the call's card shows while it runs (the browser's action and the page asked for).
        #[serde(default)]
        views: Vec<ToolView>,
    },
    /// Policy wants the user's decision before this call runs.
    ApprovalRequested {
        request_id: String,
        session_id: String,
        call: ToolCall,
        /// The reason in English (the CLI's and older clients' text).
        reason: String,
        /// The same reason as data, for the viewer's language.
        reason_code: Box<AuditReason>,
        /// The sub-agent asking, when a child of this session's turn asks.
        agent: Option<String>,
        /// What the call would change (an edit, a patch or a write as a diff).
        view: Option<ToolView>,
        /// The call starts programs, which run in the sandbox of Settings → Security.
        starts_programs: bool,
    },
    ApprovalResolved {
        request_id: String,
        decision: ApprovalDecision,
    },
    ToolCallFinished {
        message_id: i64,
        result: ToolResult,
    },
    /// Older turns were folded into a stored summary message.
    Compacted {
        summary_message_id: i64,
        summarized_through: i64,
    },
    TurnFinished {
        session_id: String,
        iterations: u32,
        usage: Usage,
        reason: TurnEnd,
    },
    TurnFailed {
        session_id: String,
        error: AppError,
    },
    /// A tool changed the session's checklist.
    TodoChanged {
        list: TodoList,
    },
    /// The model asks the user a question (`clarify`); the call waits for the answer.
    QuestionAsked {
        request_id: String,
        session_id: String,
        question: String,
        options: Vec<String>,
    },
    /// A call asks the user to fill in a form (an MCP server's elicitation) and waits for the
    /// form card's answer; closed by `question_closed` like a question.
    FormRequested {
        request_id: String,
        session_id: String,
        form: Form,
    },
    /// The question or form was answered, timed out or its turn stopped.
    QuestionClosed {
        request_id: String,
        answered: bool,
    },
    /// A sub-agent of this turn's session started, made progress or ended.
    SubAgent {
        progress: SubAgentProgress,
    },
}

/// How a turn ended without failing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum TurnEnd {
    Completed,
    MaxIterations,
    Cancelled,
}

/// The user's answer to an approval request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalDecision {
    AllowOnce,
    AllowSession,
    /// Once, with the network on for the programs the call starts (never remembered).
    AllowWithNetwork,
    /// Once, outside the sandbox: the programs the call starts get all of the user's rights.
    AllowUnsandboxed,
    /// Once, and from now on the calls of this chat that run inside the sandbox (network off)
    /// run without asking; calls that need to leave it still ask.
    AllowSandboxedInChat,
    /// Once outside the sandbox, and so are the next calls of this chat that are allowed: for
    /// systems without a sandbox, instead of `sandbox = "off"` everywhere.
    AllowUnsandboxedInChat,
    Deny,
}
