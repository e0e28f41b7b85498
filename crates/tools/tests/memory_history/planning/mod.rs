//! `todo`, `task`, `workflow` and `clarify`: every illegal transition, bad graphs, malformed
//! arguments, state surviving a reopened store, and questions answered, unanswered and asked
//! where nobody can answer; the front end and calls they share.

#![allow(clippy::unwrap_used)]

mod clarify;
mod task;
mod todo;
mod workflow;

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use hearth_protocol::EngineEvent;
use hearth_tools::{
    register_planning, Conversation, Dialect, Question, Registry, Reply, ToolError,
};
use serde_json::Value;

use crate::memory_history::Fixture;
use crate::support::{failed, succeeded};

/// A front end that records what it was shown and answers questions with a fixed reply.
struct Front {
    shown: Mutex<Vec<EngineEvent>>,
    asked: Mutex<Vec<Question>>,
    reply: Reply,
}

#[async_trait]
impl Conversation for Front {
    fn language(&self) -> hearth_protocol::Language {
        hearth_protocol::Language::En
    }

    fn show(&self, event: EngineEvent) {
        self.shown.lock().unwrap().push(event);
    }

    async fn ask(&self, question: Question) -> Reply {
        self.asked.lock().unwrap().push(question);
        self.reply.clone()
    }
}

fn front(reply: Reply) -> Arc<Front> {
    Arc::new(Front {
        shown: Mutex::new(Vec::new()),
        asked: Mutex::new(Vec::new()),
        reply,
    })
}

/// The planning tools over the fixture's store.
fn registry(fixture: &Fixture) -> Registry {
    let mut registry = Registry::new(Dialect::Hearth);
    register_planning(&mut registry, Arc::clone(&fixture.store)).unwrap();
    registry
}

async fn with_front(
    fixture: &Fixture,
    front: &Arc<Front>,
    tool: &str,
    args: Value,
) -> Result<Value, ToolError> {
    let mut ctx = fixture.context();
    ctx.conversation = Some(front.clone() as Arc<dyn Conversation>);
    registry(fixture)
        .dispatch(tool, &args.to_string(), &ctx)
        .await
}

async fn ok(fixture: &Fixture, tool: &str, args: Value) -> Value {
    succeeded(
        registry(fixture)
            .dispatch(tool, &args.to_string(), &fixture.context())
            .await,
        tool,
        &args,
    )
}

async fn err(fixture: &Fixture, tool: &str, args: Value) -> ToolError {
    failed(
        registry(fixture)
            .dispatch(tool, &args.to_string(), &fixture.context())
            .await,
        tool,
        &args,
    )
}
