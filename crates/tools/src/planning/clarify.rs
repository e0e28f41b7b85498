//! `clarify`: asks the user a question in the chat (options as buttons, or a free-text answer)
//! and returns the answer. The turn waits until the user answers, the front end's time limit
//! passes or the turn is stopped; where nobody can answer (scheduled runs under `daemon`, no
//! window or terminal) it is `unavailable`.

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::conversation::{Question, Reply};
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};

/// The question tool.
pub struct Clarify;

/// Most options a question offers.
const MAX_OPTIONS: usize = 10;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClarifyArgs {
    /// The question, short and specific.
    #[schemars(length(min = 1, max = 2000))]
    pub question: String,
    /// Answers to offer as buttons (the user may also type their own).
    #[serde(default)]
    #[schemars(length(max = 10))]
    pub options: Vec<String>,
}

#[async_trait]
impl Tool for Clarify {
    type Args = ClarifyArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::CLARIFY
    }

    fn description(&self) -> &str {
        "Ask the user a question when you cannot go on without their decision, optionally \
         with answers to choose from (shown as buttons; they may type their own). Waits for \
         the answer. Not available in unattended runs: decide yourself there and say so."
    }

    async fn run(&self, ctx: &ToolContext, args: ClarifyArgs) -> Result<Value, ToolError> {
        let question = args.question.trim().to_string();
        if question.is_empty() {
            return Err(ToolError::invalid(
                "question",
                "`question` must not be blank",
            ));
        }
        let mut options: Vec<String> = Vec::new();
        for (i, option) in args.options.iter().enumerate() {
            let option = option.trim();
            if option.is_empty() || option.chars().count() > 200 {
                return Err(ToolError::invalid(
                    format!("options[{i}]"),
                    "an option is 1 to 200 characters",
                ));
            }
            if options.iter().any(|o| o == option) {
                return Err(ToolError::invalid(
                    format!("options[{i}]"),
                    format!("\"{option}\" is offered twice"),
                ));
            }
            options.push(option.to_string());
        }
        if options.len() > MAX_OPTIONS {
            return Err(ToolError::invalid(
                "options",
                format!("at most {MAX_OPTIONS} options"),
            ));
        }
        let Some(conversation) = &ctx.conversation else {
            return Err(unavailable());
        };
        match conversation
            .ask(Question {
                question,
                options: options.clone(),
            })
            .await
        {
            Reply::Answered(answer) => {
                let option = options.iter().position(|o| *o == answer);
                Ok(json!({"answer": answer, "option_index": option}))
            }
            Reply::NoAnswer => Err(ToolError::new(
                ErrorKind::Timeout,
                "nobody answered the question in time; go on with your best judgement and say \
                 what you assumed, or ask again later",
            )),
            Reply::Unavailable => Err(unavailable()),
        }
    }
}

fn unavailable() -> ToolError {
    ToolError::new(
        ErrorKind::Unavailable,
        "nobody can answer questions here (an unattended run, or no window or terminal); \
         decide yourself and say what you assumed",
    )
}
