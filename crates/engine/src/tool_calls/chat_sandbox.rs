//! The sandbox one call's programs run in: the user's settings, the grants matching its command or
//! skill, and what its chat chose (sandboxed commands without asking, or no sandbox).

use std::collections::HashMap;
use std::sync::Mutex;

use hearth_policy::{Capability, ToolFacts};
use hearth_protocol::{ChatSandbox, ToolCall};
use serde_json::Value;

use super::ToolRunner;

/// What each chat chose about its commands' sandbox, kept while Hearth runs. Shared by the
/// runners a window builds in turn, so that a rebuilt runner keeps the chats' choices.
#[derive(Debug, Default)]
pub struct ChatSandboxes(Mutex<HashMap<String, ChatSandbox>>);

impl ChatSandboxes {
    /// What the chat `session_id` chose (nothing, by default).
    pub fn get(&self, session_id: &str) -> ChatSandbox {
        self.0
            .lock()
            .map(|chats| chats.get(session_id).copied().unwrap_or_default())
            .unwrap_or_default()
    }

    /// Records the chat's choice (turning one off included).
    pub fn set(&self, session_id: &str, choice: ChatSandbox) {
        if let Ok(mut chats) = self.0.lock() {
            if choice == ChatSandbox::default() {
                chats.remove(session_id);
            } else {
                chats.insert(session_id.to_string(), choice);
            }
        }
    }

    pub(super) fn update(&self, session_id: &str, change: impl FnOnce(&mut ChatSandbox)) {
        let mut choice = self.get(session_id);
        change(&mut choice);
        self.set(session_id, choice);
    }
}

impl ToolRunner {
    /// The sandbox of the programs `call` (of a tool with `facts`) starts in `session_id`,
    /// before an answer widens it: the settings, with the network and folders the grants
    /// matching its command (or its skill, for `skill_run`) add; no sandbox when the chat
    /// chose to run its commands outside it.
    pub(super) fn call_sandbox(
        &self,
        session_id: &str,
        call: &ToolCall,
        facts: &ToolFacts,
    ) -> hearth_sandbox::Settings {
        let mut settings = self.sandbox.clone();
        if !facts.has(Capability::ProcessExec) {
            return settings;
        }
        let arguments: Value = serde_json::from_str(&call.arguments).unwrap_or_default();
        let command = arguments.get("command").and_then(Value::as_str);
        let skill = (facts.name == "skill_run")
            .then(|| arguments.get("name").and_then(Value::as_str))
            .flatten();
        let granted = hearth_policy::granted(&self.grants, command, skill);
        settings.network |= granted.network;
        settings.writable.extend(granted.writable);
        if self.chats.get(session_id).unsandboxed {
            settings.mode = hearth_sandbox::Mode::Off;
        }
        settings
    }

    /// Whether a call policy would ask about runs without asking: its chat chose to run
    /// sandboxed commands without asking, and the call starts programs that stay in the sandbox
    /// (on, network off, available on this system). A call its tool always confirms still asks.
    pub(super) async fn runs_without_asking(
        &self,
        session_id: &str,
        call: &ToolCall,
        facts: &ToolFacts,
        always_ask: bool,
    ) -> bool {
        if always_ask
            || !facts.has(Capability::ProcessExec)
            || !self.chats.get(session_id).sandboxed_without_asking
        {
            return false;
        }
        let sandbox = self.call_sandbox(session_id, call, facts);
        if sandbox.mode == hearth_sandbox::Mode::Off || sandbox.network {
            return false;
        }
        tokio::task::spawn_blocking(hearth_sandbox::probe)
            .await
            .is_ok_and(|isolation| isolation.kind != "none")
    }
}
