//! Elicitation with server-everything's `trigger-elicitation-request`: its form asked of the
//! person behind the call (one question per field), the defaults of fields left out sent, a
//! decline sent back, and with nobody to ask (an unattended run) declined and the reason logged.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use hearth_protocol::EngineEvent;
use hearth_tools::{Conversation, Question, Reply};
use serde_json::json;

use super::{everything, text, Rig};

/// A person who answers the opening question with `opening`, gives a name, and leaves every
/// optional field out; the questions asked are kept.
struct Person {
    opening: &'static str,
    asked: Mutex<Vec<Question>>,
}

#[async_trait]
impl Conversation for Person {
    fn language(&self) -> hearth_protocol::Language {
        hearth_protocol::Language::En
    }

    fn show(&self, _: EngineEvent) {}

    async fn ask(&self, question: Question) -> Reply {
        let answer = if self.asked.lock().unwrap().is_empty() {
            self.opening.to_string()
        } else if question.question.starts_with("String (required)") {
            "Ada Lovelace".to_string()
        } else {
            "(leave out)".to_string()
        };
        self.asked.lock().unwrap().push(question);
        Reply::Answered(answer)
    }
}

const TOOL: &str = "mcp__everything__trigger-elicitation-request";

#[tokio::test(flavor = "multi_thread")]
async fn everything_elicitation_is_asked_answered_with_defaults_declined_and_refused_unattended() {
    let rig = Rig::start(&[everything("everything")]).await;
    assert!(
        rig.manager.tool_infos().iter().any(|t| t.name == TOOL),
        "server-everything offers its elicitation tool only to clients that declare elicitation"
    );

    let person = Arc::new(Person {
        opening: "Answer",
        asked: Mutex::new(Vec::new()),
    });
    let mut ctx = rig.ctx();
    ctx.conversation = Some(person.clone());
    let accepted = rig.manager.call(TOOL, json!({}), &ctx).await.unwrap();
    let out = text(&accepted);
    assert!(
        out.contains("User provided the requested information"),
        "{out}"
    );
    assert!(out.contains("- Name: Ada Lovelace"), "{out}");
    // Left out, so their defaults were sent.
    assert!(out.contains("- Favorite Integer: 42"), "{out}");
    assert!(out.contains("- Favorite Number: 3.14"), "{out}");
    let asked = person.asked.lock().unwrap().clone();
    assert!(
        asked[0]
            .question
            .contains("`everything` asks: Please provide inputs"),
        "{asked:?}"
    );
    assert_eq!(asked[0].options, ["Answer", "Decline", "Cancel"]);
    let pick = asked
        .iter()
        .find(|q| q.question.starts_with("Untitled Single Select Enum"))
        .unwrap();
    assert_eq!(pick.options[0], "Monica", "{pick:?}");

    let declining = Arc::new(Person {
        opening: "Decline",
        asked: Mutex::new(Vec::new()),
    });
    ctx.conversation = Some(declining);
    let declined = rig.manager.call(TOOL, json!({}), &ctx).await.unwrap();
    assert!(text(&declined).contains("User declined"), "{declined}");

    // An unattended run (no conversation): declined, and the log says why.
    let unattended = rig.manager.call(TOOL, json!({}), &rig.ctx()).await.unwrap();
    assert!(text(&unattended).contains("User declined"), "{unattended}");
    let log = rig.status("everything").log_tail.join("\n");
    assert!(
        log.contains("hearth: elicitation declined: nobody can answer here"),
        "{log}"
    );
    assert!(
        log.contains("hearth: elicitation declined by the user"),
        "{log}"
    );
}
